#!/usr/bin/env bash
# run161 (session 18): the next k-block's stage probed ahead (`HopperConfig::probe_ahead`: `mbarrier.test_wait`
# once a k-block's wgmmas are committed, as cuBLASLt's ping-pong does; ours waited at the top of every
# k-block, and its first wgmma's warp-group arrive held 18 % of the mainloop's stall samples, run148):
# exactness and racecheck on `bench_hopper check tiny` (two probing configurations among the checked ones),
# then `bench_hopper probe` (the plan's tiles with and without, interleaved with cublasGemmEx, seven shapes),
# and the split-K GPU tests on this code (the workspace size computed from the padded tiles).
set -uo pipefail
OUT="${OUT:-/tmp/run161}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run161
OUT="$OUT" bash scripts/gpu/hopper_ab.sh probe _pa   # racecheck on check tiny, then the A/B (inline when it ran; same commands)
s=$SECONDS; timeout 60 gpu-bin/test-matmul_run --test-threads=1 split_k_slices narrow_sides > "$OUT/test-split.log" 2>&1
echo "split tests rc=$? $((SECONDS-s))s: $(grep -E '^test result' "$OUT/test-split.log")"
