#!/usr/bin/env bash
# run87 (session 8, H200): two handles each (the rotation covers both places evenly in 6 rounds): d = 64 with the first
# S wgmma at scale-d 0 (--sd0) and with persistent CTAs (--persistent), which run86 (12 handles) showed ahead on some rows;
# two processes each.
set -uo pipefail
OUT="${OUT:-/tmp/run87}"; mkdir -p "$OUT"; export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cache87
for sw in sd0 persistent; do for i in 1 2; do
  timeout 100 gpu-bin/bench_attention --d 64 --seq16k --$sw > "$OUT/$sw-$i.log" 2> "$OUT/$sw-$i.err"
done; done
for sw in sd0 persistent; do for i in 1 2; do
  awk -v sw=$sw '$6==sw{l[$1" "$5]=$8} $6=="default"{d[$1" "$5]=$8} END{for(k in l) printf "%s %.3f\n", k, l[k]/d[k]}' "$OUT/$sw-$i.log" | sort -n > "$OUT/r-$sw-$i"
done; paste "$OUT/r-$sw-1" "$OUT/r-$sw-2" | awk -v sw=$sw '{print sw" seq "$1" causal "$2": "$3" / "$6}'; done
