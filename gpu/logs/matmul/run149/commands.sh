#!/usr/bin/env bash
# run149 (session 17): `chain_k` (each 64-row chunk's wgmmas back to back, as cuBLASLt's ping-pong 128x128
# issues them, run148) against K step by K step, for the clustered 128x256 (one chunk per consumer: the
# same code, a control), its stream-K form, the ping-pong 128x128 and 128x192, on the sweep's shapes
# (`bench_hopper chain`), interleaved with cublasGemmEx, one process.
set -uo pipefail
OUT="${OUT:-/tmp/run149}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run149
s=$SECONDS; gpu-bin/bench_hopper chain > "$OUT/chain.log" 2>&1; echo "chain rc=$? $((SECONDS-s))s"
cat "$OUT/chain.log"
