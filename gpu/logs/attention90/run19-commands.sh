#!/usr/bin/env bash
# run19 (exponentials on the FMA pipe, `poly_exp2_every`): the GPU tests, the bench (d = 64 and 128, default
# vs one of every 4 and every 2 score atoms), sanitizers on the short test, torch SDPA (cuDNN, FA2) last.
set -uo pipefail
BIN=gpu-bin
OUT="${OUT:-/tmp/run19}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 PATH="$PATH:/usr/local/cuda/bin" CUTE_CACHE_DIR=/tmp/cute-cache-run19
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv > "$OUT/gpu.txt" 2>&1
timeout 30 "$BIN/test-run" --exact gpu_run::poly_exp2_matches_exp2 --nocapture > "$OUT/test-poly-exp2.log" 2>&1
echo "poly_exp2 rc=$?: $(grep -E 'max relative|^test result' "$OUT/test-poly-exp2.log" | tr '\n' ' ')"
s=$SECONDS
timeout 100 "$BIN/test-attention_run" --test-threads=1 --nocapture poly_exp2 > "$OUT/test-poly.log" 2>&1
echo "test rc=$? $((SECONDS-s))s: $(grep -E '^test result' "$OUT/test-poly.log")"; grep -E "FAIL|panicked|max" "$OUT/test-poly.log" | head -8
s=$SECONDS
timeout 170 "$BIN/bench_attention" --d 64 --d 128 --poly 8 --poly 4 --poly 2 > "$OUT/bench-poly.log" 2> "$OUT/bench-poly.err"
echo "bench rc=$? $((SECONDS-s))s"; cat "$OUT/bench-poly.log"; tail -2 "$OUT/bench-poly.err"
T=attention_run::sm90_poly_exp2_ramp
for tool in memcheck racecheck; do
  s=$SECONDS
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 "$BIN/test-attention_run" --test-threads=1 --exact $T > "$OUT/san-$tool-poly.log" 2>&1
  echo "$tool rc=$? $((SECONDS-s))s: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|^test result' "$OUT/san-$tool-poly.log" | tr '\n' ' ')"
done
s=$SECONDS
(cd scripts/gpu && timeout 70 python3 torch_attention.py --rounds 3 --dims 64,128 --seqs 1024,4096) > "$OUT/torch.log" 2>&1
echo "torch rc=$? $((SECONDS-s))s"; cat "$OUT/torch.log" | tail -12
# the largest errors against the bounds (ratio), from the test log
python3 - "$OUT/test-poly.log" <<'PY' | tee "$OUT/test-poly-errors.txt"
import re, sys
worst = {}
for line in open(sys.argv[1]):
    m = re.match(r"(\w+) .*max\|O-ref\| = ([0-9.e+-]+) \(bound ([0-9.e+-]+)\), max\|LSE-ref\| = ([0-9.e+-]+)", line)
    if m:
        t, e, b, l = m.group(1), *map(float, m.groups()[1:])
        w = worst.setdefault(t, [0, 0, 0])
        w[0], w[1], w[2] = max(w[0], e), max(w[1], e / b), max(w[2], l)
for t, (e, r, l) in worst.items():
    print(f"{t}: max|O-ref| {e:.2e} ({r:.2f} of the bound), max|LSE-ref| {l:.2e}")
PY
