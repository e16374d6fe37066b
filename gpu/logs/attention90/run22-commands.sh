#!/usr/bin/env bash
# run22 (the softmax's row max and sum in independent chains, `softmax_chains`): the GPU tests, the bench
# (d 64/128/256, 1k and 4k keys, default vs 2, 4, 8 chains in one process), sanitizers on the short test,
# torch SDPA (cuDNN, FA2). Everything into two files.
set -uo pipefail
BIN=gpu-bin
OUT="${OUT:-/tmp/run22}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 PATH="$PATH:/usr/local/cuda/bin" CUTE_CACHE_DIR=/tmp/cute-cache-run22
{
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv
s=$SECONDS
timeout 100 "$BIN/test-attention_run" --test-threads=8 --nocapture chains > /tmp/test-chains.log 2>&1
echo "test rc=$? $((SECONDS-s))s: $(grep -E '^test result' /tmp/test-chains.log)"; grep -E "FAIL|panicked" /tmp/test-chains.log | head -5
python3 - /tmp/test-chains.log <<'PY'
import re, sys
w = {}
for line in open(sys.argv[1]):
    m = re.match(r"(\w+) .*max\|O-ref\| = ([0-9.e+-]+) \(bound ([0-9.e+-]+)\), max\|LSE-ref\| = ([0-9.e+-]+)", line)
    if m:
        t, e, b, l = m.group(1), *map(float, m.groups()[1:])
        x = w.setdefault(t, [0, 0, 0]); x[0], x[1], x[2] = max(x[0], e), max(x[1], e / b), max(x[2], l)
for t, (e, r, l) in w.items(): print(f"{t}: max|O-ref| {e:.2e} ({r:.2f} of the bound), max|LSE-ref| {l:.2e}")
PY
s=$SECONDS
timeout 170 "$BIN/bench_attention" --d256 --chains 2 --chains 4 --chains 8 2> /tmp/bench.err
echo "bench rc=$? $((SECONDS-s))s"; tail -2 /tmp/bench.err
for tool in memcheck racecheck; do
  s=$SECONDS
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 "$BIN/test-attention_run" --test-threads=1 --exact attention_run::sm90_chains_ramp > /tmp/san-$tool.log 2>&1
  echo "$tool rc=$? $((SECONDS-s))s: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|^test result' /tmp/san-$tool.log | tr '\n' ' ')"
done
s=$SECONDS
(cd scripts/gpu && timeout 60 python3 torch_attention.py --rounds 3 --seqs 1024,4096)
echo "torch rc=$? $((SECONDS-s))s"
} > "$OUT/summary.log" 2>&1
cat "$OUT/summary.log"
