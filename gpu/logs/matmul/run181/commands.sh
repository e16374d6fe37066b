#!/usr/bin/env bash
# run181 (session 21, the first H100 lent since session 9): the whole table on the code of 5a1279f, on the
# GPU the issues' targets name. GEMM (`bench_matmul`: ours vs cuBLASLt heuristic / best of 8 and
# cublasGemmEx, bf16 and f16, the mma.sync path, host cost), FP8 (`bench_fp8 bench`: per-tensor and block
# scaled vs cuBLASLt FP8), the attention sweep (ours, then torch SDPA with cuDNN and flash), then
# torch.matmul and torch._scaled_mm for the record. Run twice (RUN=1, RUN=2) for the two-run rule.
set -uo pipefail
OUT="${OUT:-/tmp/run181}"; mkdir -p "$OUT"; R="${RUN:-1}"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run181
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv > "$OUT/gpu-$R.txt"; cat "$OUT/gpu-$R.txt"
s=$SECONDS; timeout 280 gpu-bin/bench_matmul > "$OUT/bench_matmul-$R.log" 2>&1
echo "bench_matmul rc=$? $((SECONDS-s))s"; grep -E "^\| (bf16|f16)|host cost|mma" "$OUT/bench_matmul-$R.log" | cut -d'|' -f1-9 | sed 's/ (8 algos)//'
s=$SECONDS; timeout 180 gpu-bin/bench_fp8 bench > "$OUT/bench_fp8-$R.log" 2>&1
echo "bench_fp8 rc=$? $((SECONDS-s))s"; grep -E "^\|" "$OUT/bench_fp8-$R.log" | cut -d'|' -f1-11 | tail -8
mkdir -p "$OUT/attention-$R"
OUT="$OUT/attention-$R" CUTE_CACHE_DIR=/tmp/cute-cache-attn bash gpu/logs/attention-settled/commands.sh
if [ "$R" = 1 ]; then
  s=$SECONDS; (cd scripts/gpu && timeout 90 python3 torch_matmul.py) > "$OUT/torch_matmul.log" 2>&1
  echo "torch_matmul rc=$? $((SECONDS-s))s"; tail -28 "$OUT/torch_matmul.log"
fi
# torch_fp8.py: RUN=1 with its 4-TFLOP samples; after it, settled 40-TFLOP samples (as bench_fp8)
s=$SECONDS; (cd scripts/gpu && timeout 90 python3 torch_fp8.py) > "$OUT/torch_fp8-$R.log" 2>&1
echo "torch_fp8 rc=$? $((SECONDS-s))s"; tail -8 "$OUT/torch_fp8-$R.log"
# (added after run 184, whose ten files came back as eight) the device tool brings back at most 8 files
bash scripts/gpu/pack_out.sh "$OUT"
