#!/usr/bin/env python3
"""Compile-time cost of `layout!` with static algebra.

Generates a crate whose lib.rs holds N `cute::layout!(EXPR)` invocations, EXPR taken from the CuTe
oracle (lines whose expected result is not `error`, whose integer literals are all static, and whose
result the typed layer represents: a layout or an integer tuple, no basis strides or swizzles), keeps
only the expressions that this build's evaluator already reproduces exactly (checked with `cute eval -`),
and times `cargo build` of that crate (dependencies already built, only the crate itself recompiled)
against the same crate with no expression. Reports milliseconds per expression:
(t_N - t_0) / N, best of R builds each, in wall-clock time and in CPU time (user + sys of cargo and
rustc; steadier than wall time on a shared machine).

usage: scripts/macro-bench/compile_cost.py [--oracle PATH] [--n 100 400] [--repeat 3] [--release-macros]
"""
import argparse, os, re, resource, shutil, subprocess, sys, time

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def all_static(expr):
    e = re.sub(r"[A-Za-z_]\w*<[-\d,\s]*>", "f", expr)  # template arguments, Sw<B,M,S>
    e = re.sub(r"@\d+", "", e)  # basis modes
    return re.search(r"(?<![_\w])-?\d", e) is None


def typed_result(expected):
    if "@" in expected or "Sw<" in expected or " o " in expected:
        return False
    depth, top, inner = 0, 0, 0
    for ch in expected:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == ":":
            if depth == 0:
                top += 1
            else:
                inner += 1
    return inner == 0 and top <= 1


def candidates(oracle):
    out = []
    with open(oracle) as f:
        next(f)
        for line in f:
            cols = line.rstrip("\n").split("\t")
            if len(cols) != 5:
                continue
            _, op, _, expr, expected = cols
            if expected == "error" or not all_static(expr) or not typed_result(expected):
                continue
            if re.search(r"[A-Za-z]\w*_t\b|::", expr):  # C++ type names (atoms)
                continue
            out.append((expr, expected))
    return out


def supported(cands):
    cli = subprocess.run(["cargo", "build", "-q", "--release", "-p", "cute-cli"], cwd=REPO)
    if cli.returncode != 0:
        sys.exit("cannot build the cute CLI")
    exe = os.path.join(REPO, "target", "release", "cute")
    res = subprocess.run([exe, "eval", "-"], input="\n".join(e for e, _ in cands) + "\n",
                         capture_output=True, text=True, cwd=REPO)
    got = res.stdout.splitlines()
    return [c for c, g in zip(cands, got) if g == c[1]]


def write_crate(d, exprs, release_macros):
    os.makedirs(os.path.join(d, "src"), exist_ok=True)
    prof = "\n[profile.dev.build-override]\nopt-level = 3\n" if release_macros else ""
    with open(os.path.join(d, "Cargo.toml"), "w") as f:
        f.write(f'[package]\nname = "macro-bench"\nversion = "0.0.0"\nedition = "2021"\n\n'
                f'[dependencies]\ncute-layout = {{ path = "{REPO}" }}\n\n[workspace]\n{prof}')
    shutil.copy(os.path.join(REPO, "Cargo.lock"), os.path.join(d, "Cargo.lock"))
    body = ["#![allow(unused)]", "pub fn anchor() -> usize { std::mem::size_of::<cute::typed::C<1>>() }"]
    for k, e in enumerate(exprs):
        body.append(f"pub fn e{k}() {{ let _x = cute::layout!({e}); }}")
    with open(os.path.join(d, "src", "lib.rs"), "w") as f:
        f.write("\n".join(body) + "\n")


def build_time(d, target, repeat):
    """Best (wall, cpu) seconds of `cargo build` over `repeat` rebuilds of the crate alone. CPU time
    (user + sys of cargo and rustc) is the steadier figure on a shared machine."""
    best_wall, best_cpu = float("inf"), float("inf")
    # No incremental compilation: every build type-checks and generates code from scratch, as a C++
    # compiler does.
    env = dict(os.environ, CARGO_TARGET_DIR=target, CARGO_INCREMENTAL="0")
    for _ in range(repeat):
        os.utime(os.path.join(d, "src", "lib.rs"))
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        r = subprocess.run(["cargo", "build", "-q", "--offline"], cwd=d, env=env, capture_output=True, text=True)
        dt = time.perf_counter() - t
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        if r.returncode != 0:
            sys.exit("the generated crate does not compile:\n" + r.stderr[-4000:])
        cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
        best_wall, best_cpu = min(best_wall, dt), min(best_cpu, cpu)
    return best_wall, best_cpu


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--oracle", default=os.path.join(REPO, "tests", "data", "oracle_public.tsv"))
    ap.add_argument("--n", type=int, nargs="+", default=[100, 400])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--release-macros", action="store_true", help="build the proc macro with opt-level 3")
    ap.add_argument("--dir", default=os.path.join(REPO, "target", "macro-bench"))
    a = ap.parse_args()

    cands = candidates(a.oracle)
    ok = supported(cands)
    print(f"oracle: {len(cands)} static, typed-representable expressions; {len(ok)} reproduced by this build")
    if not ok:
        sys.exit("no expression to measure (the algebra is not in the evaluator yet?)")
    crate, target = os.path.join(a.dir, "crate"), os.path.join(a.dir, "target")
    write_crate(crate, [], a.release_macros)
    build_time(crate, target, 1)  # dependencies
    w0, c0 = build_time(crate, target, a.repeat)
    print(f"N=0: wall {w0 * 1000:.0f} ms, cpu {c0 * 1000:.0f} ms (best of {a.repeat} builds)")
    for n in a.n:
        exprs = [ok[k % len(ok)][0] for k in range(n)]
        note = "" if n <= len(ok) else f" ({len(ok)} distinct, repeated)"
        write_crate(crate, exprs, a.release_macros)
        w, c = build_time(crate, target, a.repeat)
        print(f"N={n}{note}: wall {w * 1000:.0f} ms, cpu {c * 1000:.0f} ms; per expression: "
              f"wall {(w - w0) * 1000 / n:.2f} ms, cpu {(c - c0) * 1000 / n:.2f} ms")


if __name__ == "__main__":
    main()
