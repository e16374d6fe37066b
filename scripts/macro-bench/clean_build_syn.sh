#!/bin/bash
# Clean-build cost of a syn dependency in the macro crate, for a user crate (README, section on the macro).
# Builds a user crate (default features of the facade, one `layout!`) against two copies of this
# commit: as is, and with `syn = { version = "2", features = ["full"] }` added to layout-macros (with one
# trivial use). Each build gets a fresh CARGO_TARGET_DIR; wall and CPU time from /usr/bin/time.
# usage: scripts/macro-bench/clean_build_syn.sh [RUNS=2] [JOBS=1]   (needs the crates in cargo's cache or the network)
set -euo pipefail
runs=${1:-2}; jobs=${2:-1}
repo=$(cd "$(dirname "$0")/../.." && pwd)
w=$(mktemp -d /tmp/syn-cost.XXXX)
for v in base syn; do
    mkdir -p "$w/$v" "$w/uc-$v/src"
    git -C "$repo" archive HEAD | tar -x -C "$w/$v"
    cat > "$w/uc-$v/Cargo.toml" <<TOML
[package]
name = "user-crate"
version = "0.0.0"
edition = "2024"
publish = false
[dependencies]
cute-layout = { path = "$w/$v" }
[workspace]
TOML
    cat > "$w/uc-$v/src/main.rs" <<'RS'
use cute::{Layout, composition, layout};
fn main() -> Result<(), Box<dyn std::error::Error>> {
    let l: Layout = layout!((4,(3,6)):(1,(4,12))).into();
    let c = composition(&l, &"(_4,_3):(_3,_1)".parse::<Layout>()?)?;
    println!("{l} o (_4,_3):(_3,_1) = {c}");
    Ok(())
}
RS
done
sed -i 's/^quote = "1"$/quote = "1"\nsyn = { version = "2", features = ["full"] }/' "$w/syn/layout-macros/Cargo.toml"
cat >> "$w/syn/layout-macros/src/lib.rs" <<'RS'
#[allow(dead_code)]
fn syn_linked(ts: proc_macro2::TokenStream) -> bool {
    syn::parse2::<syn::Expr>(ts).is_ok()
}
RS
grep -q '^syn = ' "$w/syn/layout-macros/Cargo.toml"
for r in $(seq "$runs"); do
    for p in dev release; do
        for v in base syn; do
            flag=(); [ $p = release ] && flag=(--release)
            t="$w/target"; rm -rf "$t"
            (cd "$w/uc-$v" && /usr/bin/time -f "$v $p -j$jobs run$r: wall %e s, user %U s, sys %S s" \
                env CARGO_TARGET_DIR="$t" cargo build -q -j"$jobs" "${flag[@]}")
        done
    done
done
rm -rf "$w"
