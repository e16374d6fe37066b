#!/usr/bin/env bash
# run187 (session 23, H100): (1) 4-CTA clusters (a quarter of B multicast by each CTA) checked exactly
# (`bench_hopper check small cl4`: every majors/types pair, the small sizes) and under compute-sanitizer
# memcheck and racecheck (tiny sizes); (2) clusters of 4 against clusters of 2 (`bench_hopper quads`:
# 128x256, with stream-K along N, ping-pong 128x128; the sweep's 7 shapes, interleaved, medians);
# (3) a power and clock trace (`scripts/gpu/power_trace.py`, NVML every 50 ms) beside `bench_matmul
# --steady 4` at 4096^3 and 8192^3 bf16: ours, cuBLASLt's fastest algorithm and its top-1, mma.sync,
# each 4 s back to back, three rounds: watts, SM clock and joules per TFLOP of each; (4) `bench_fp8 quads`:
# per-tensor FP8 128x256 (and stream-K along N) in clusters of 4 against 2.
set -uo pipefail
OUT="${OUT:-/tmp/run187}"; mkdir -p "$OUT"; R="${RUN:-1}"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run187
S="$OUT/summary.txt"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv > "$S"
s=$SECONDS; timeout 120 gpu-bin/bench_hopper check small cl4 > "$OUT/check-cl4-$R.log" 2>&1
echo "check small cl4 rc=$? $((SECONDS-s))s: $(grep -c ' ok\| exact' "$OUT/check-cl4-$R.log") ok lines; $(tail -1 "$OUT/check-cl4-$R.log")" >> "$S"
for tool in memcheck racecheck; do
  s=$SECONDS; timeout 150 compute-sanitizer --tool $tool gpu-bin/bench_hopper check tiny cl4 > "$OUT/$tool-cl4-$R.log" 2>&1
  echo "$tool cl4 rc=$? $((SECONDS-s))s: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|check:' "$OUT/$tool-cl4-$R.log" | tr '\n' ' ')" >> "$S"
done
s=$SECONDS; timeout 150 gpu-bin/bench_hopper quads > "$OUT/quads-$R.log" 2>&1
echo "quads rc=$? $((SECONDS-s))s" >> "$S"; grep -E "cublasGemmEx|TFLOP" "$OUT/quads-$R.log" >> "$S"
s=$SECONDS; timeout 120 gpu-bin/bench_fp8 quads > "$OUT/fp8-quads-$R.log" 2>&1
echo "bench_fp8 quads rc=$? $((SECONDS-s))s" >> "$S"; grep '^sweep' "$OUT/fp8-quads-$R.log" >> "$S"
python3 scripts/gpu/power_trace.py sample "$OUT/trace-$R.csv" 2> "$OUT/trace-$R.err" & TP=$!
for shape in 1,4096,4096,4096 1,8192,8192,8192; do
  s=$SECONDS; timeout 100 gpu-bin/bench_matmul --steady 4 --shape "$shape" >> "$OUT/steady-$R.log" 2>&1
  echo "steady $shape rc=$? $((SECONDS-s))s" >> "$S"
done
kill $TP
python3 scripts/gpu/power_trace.py join "$OUT/trace-$R.csv" "$OUT/steady-$R.log" > "$OUT/power-$R.md"
cat "$OUT/trace-$R.err" "$OUT/power-$R.md" >> "$S"
cat "$S"
bash scripts/gpu/pack_out.sh "$OUT"
