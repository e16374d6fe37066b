#!/usr/bin/env bash
# run185 (session 22, H100): (1) the GPU tests of the GEMM, FP8 and attention calls on this session's code
# (module splits and host-side changes; the generated kernels are byte-identical to session 21's);
# (2) `bench_fp8 streamk` on the H100 (per-tensor 128x256 with and without stream-K and 2-CTA clusters,
# ping-pong 128x192; 8 interleaved rounds at 8192x4096x14336, 8192^3, 8192x14336x4096, 4096^3: the FP8
# per-tensor rows below cuBLASLt's fast accumulation); (3) the autotuner's survey in 5 interleaved rounds
# (CUTE_AUTOTUNE_ROUNDS=5, every alternative's median logged) at the GEMM shapes below 1.00 on both of
# session 21's runs, then ours (tuned) against cuBLASLt in `bench_matmul --shape`'s rounds.
set -uo pipefail
OUT="${OUT:-/tmp/run185}"; mkdir -p "$OUT"; R="${RUN:-1}"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run185
S="$OUT/summary.txt"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv > "$S"
for t in matmul_run fp8_run attention_run; do
  s=$SECONDS; timeout 200 gpu-bin/test-$t --test-threads=1 > "$OUT/test-$t-$R.log" 2>&1
  echo "test-$t rc=$? $((SECONDS-s))s: $(grep -E '^test result' "$OUT/test-$t-$R.log" | tail -1)" >> "$S"
done
s=$SECONDS; timeout 150 gpu-bin/bench_fp8 streamk > "$OUT/fp8-streamk-$R.log" 2>&1
echo "bench_fp8 streamk rc=$? $((SECONDS-s))s" >> "$S"; grep '^sweep' "$OUT/fp8-streamk-$R.log" >> "$S"
for shape in 1,256,2048,32768 1,1024,1024,65536 1,16384,8192,1024 1,1024,8192,8192 1,4096,4096,4096 32,1024,1024,1024; do
  s=$SECONDS
  CUTE_AUTOTUNE_ROUNDS=5 CUTE_AUTOTUNE_LOG=1 CUTE_CACHE_DIR=/tmp/cute-tune-$R-$shape \
    timeout 150 gpu-bin/bench_matmul --tuned --shape "$shape" >> "$OUT/tuned-$R.log" 2>&1
  echo "tuned $shape rc=$? $((SECONDS-s))s" >> "$S"
done
grep -E "median of|^\| bf16" "$OUT/tuned-$R.log" | sed 's/cute autotune //' >> "$S"
cat "$S"
bash scripts/gpu/pack_out.sh "$OUT"
