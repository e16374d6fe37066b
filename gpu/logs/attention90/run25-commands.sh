#!/usr/bin/env bash
# run25 (tail tiles, the producer computing its units' coordinates once per tile instead of per stage):
# the tail test, the bench (d = 64, tails vs none, one process; twice), torch SDPA, sanitizers on the short
# tail cases, the poly ramp test (its name check).
set -uo pipefail
BIN=gpu-bin
OUT="${OUT:-/tmp/run25}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 PATH="$PATH:/usr/local/cuda/bin" CUTE_CACHE_DIR=/tmp/cute-cache-run25
{
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv
s=$SECONDS
timeout 150 "$BIN/test-attention_run" --test-threads=8 --nocapture tail_tiles > /tmp/test-tails.log 2>&1
echo "tail test rc=$? $((SECONDS-s))s: $(grep -E '^test result' /tmp/test-tails.log)"; grep -E "FAIL|panicked" /tmp/test-tails.log | head -5
python3 - /tmp/test-tails.log <<'PY'
import re, sys
w = {}
for line in open(sys.argv[1]):
    m = re.match(r"(\w+) .*max\|O-ref\| = ([0-9.e+-]+) \(bound ([0-9.e+-]+)\), max\|LSE-ref\| = ([0-9.e+-]+)", line)
    if m:
        t, e, b, l = m.group(1), *map(float, m.groups()[1:])
        x = w.setdefault(t, [0, 0, 0, 0]); x[0], x[1], x[2] = max(x[0], e), max(x[1], e / b), max(x[2], l); x[3] += 1
for t, (e, r, l, n) in w.items(): print(f"{t}: {n} checks, max|O-ref| {e:.2e} ({r:.2f} of the bound), max|LSE-ref| {l:.2e}")
PY
s=$SECONDS
timeout 170 "$BIN/bench_attention" --d 64 --no-tails 2> /tmp/bench.err
echo "bench rc=$? $((SECONDS-s))s"; tail -2 /tmp/bench.err
s=$SECONDS
(cd scripts/gpu && timeout 50 python3 torch_attention.py --rounds 3 --dims 64 --seqs 1024,4096)
echo "torch rc=$? $((SECONDS-s))s"
for tool in memcheck racecheck; do
  s=$SECONDS
  CUTE_ATTN_SHORT=1 timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 "$BIN/test-attention_run" --test-threads=1 --exact attention_run::sm90_tail_tiles > /tmp/san-$tool.log 2>&1
  echo "$tool rc=$? $((SECONDS-s))s: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|^test result' /tmp/san-$tool.log | tr '\n' ' ')"
done
s=$SECONDS
timeout 60 "$BIN/test-attention_run" --test-threads=8 poly_exp2_ramp > /tmp/test-poly.log 2>&1
echo "poly ramp rc=$? $((SECONDS-s))s: $(grep -E '^test result' /tmp/test-poly.log)"
s=$SECONDS
timeout 100 "$BIN/bench_attention" --d 64 --no-tails 2> /tmp/bench2.err
echo "bench (second process) rc=$? $((SECONDS-s))s"
} > "$OUT/summary.log" 2>&1
cat "$OUT/summary.log"
