#!/usr/bin/env bash
# run187 (session 23, H100): (1) clusters of 4 CTAs along M (a quarter of B multicast by each) against
# clusters of 2 (`bench_hopper quads`: 128x256, 128x256 with stream-K along N, ping-pong 128x128 and
# 128x192; the sweep's 7 shapes, interleaved rounds, medians) and (2) the same for per-tensor FP8
# (`bench_fp8 quads`); (3) the 4-CTA kernels checked exactly (`bench_hopper check small cl4`);
# (4) a power and clock trace (`scripts/gpu/power_trace.py`, NVML every 50 ms) beside `bench_matmul
# --steady 2.5` at 4096^3 and 8192^3 bf16: ours, cuBLASLt's fastest algorithm and its top-1, mma.sync,
# each 2.5 s back to back, three rounds: watts, SM clock and joules per TFLOP of each; (5) compute-sanitizer
# memcheck on the 4-CTA kernels (`check tiny cl4`).
set -uo pipefail
OUT="${OUT:-/tmp/run187}"; mkdir -p "$OUT"; R="${RUN:-1}"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run187
S="$OUT/summary.txt"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv > "$S"
s=$SECONDS; timeout "${QUADS_S:-170}" gpu-bin/bench_hopper quads > "$OUT/quads-$R.log" 2>&1
echo "quads rc=$? $((SECONDS-s))s" >> "$S"; grep -E "cublasGemmEx|TFLOP" "$OUT/quads-$R.log" >> "$S"
s=$SECONDS; timeout "${FP8_QUADS_S:-90}" gpu-bin/bench_fp8 quads > "$OUT/fp8-quads-$R.log" 2>&1
echo "bench_fp8 quads rc=$? $((SECONDS-s))s" >> "$S"; grep '^sweep' "$OUT/fp8-quads-$R.log" >> "$S"
s=$SECONDS; timeout 60 gpu-bin/bench_hopper check small cl4 > "$OUT/check-cl4-$R.log" 2>&1
echo "check small cl4 rc=$? $((SECONDS-s))s: $(grep -c ' 0 wrong' "$OUT/check-cl4-$R.log") of $(grep -c ' wrong' "$OUT/check-cl4-$R.log") exact; $(tail -1 "$OUT/check-cl4-$R.log")" >> "$S"
if [ "${SHORT:-0}" != 1 ]; then   # SHORT=1 (little device time left): no power trace
python3 scripts/gpu/power_trace.py sample "$OUT/trace-$R.csv" 2>> "$S" & TP=$!
for shape in 1,4096,4096,4096 1,8192,8192,8192; do
  s=$SECONDS; timeout 50 gpu-bin/bench_matmul --steady 2.5 --shape "$shape" >> "$OUT/steady-$R.log" 2>&1
  echo "steady $shape rc=$? $((SECONDS-s))s" >> "$S"
done
kill $TP
python3 scripts/gpu/power_trace.py join "$OUT/trace-$R.csv" "$OUT/steady-$R.log" > "$OUT/power-$R.md"
cat "$OUT/power-$R.md" >> "$S"
fi
s=$SECONDS; timeout 50 compute-sanitizer --tool memcheck gpu-bin/bench_hopper check tiny cl4 > "$OUT/memcheck-cl4-$R.log" 2>&1
echo "memcheck cl4 rc=$? $((SECONDS-s))s: $(grep -E 'ERROR SUMMARY|check:' "$OUT/memcheck-cl4-$R.log" | tr '\n' ' ')" >> "$S"
cat "$S"
bash scripts/gpu/pack_out.sh "$OUT"
