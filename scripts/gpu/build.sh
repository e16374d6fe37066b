#!/usr/bin/env bash
# Builds the gpu crate's GPU test binaries and the benchmark (release, feature `cuda`) here, and
# copies them into gpu-bin/ (git-ignored via .git/info/exclude) for the GPU machine, which has no Rust.
# Then run `scripts/gpu/device.sh` there (the `run` tool with carry=["gpu-bin"]).
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p gpu-bin
rm -f gpu-bin/*
cargo test -p cute-gpu --features cuda --release --no-run --message-format=json 2>/dev/null \
  | python3 -c '
import json, sys, shutil
for line in sys.stdin:
    try: m = json.loads(line)
    except ValueError: continue
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m["target"]["name"] in ("run", "compile", "cute_gpu", "matmul_run", "fp8_run", "attention_run"):
        name = m["target"]["name"]
        name = "unit" if name == "cute_gpu" else name
        shutil.copy(m["executable"], "gpu-bin/test-" + name)
        print("gpu-bin/test-" + name)
'
cargo build -p cute-gpu --features cuda --release --bin bench --bin bench_hopper --bin bench_matmul --bin bench_fp8 --bin bench_attention
for b in bench bench_hopper bench_matmul bench_fp8 bench_attention; do cp "target/release/$b" gpu-bin/; done
cp scripts/gpu/device.sh gpu-bin/
ls -la gpu-bin
