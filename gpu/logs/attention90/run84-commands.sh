#!/usr/bin/env bash
# run84 (session 8, H200): lazy rescaling of O (Sm90AttentionConfig::lazy_rescale) at d = 128, which run81 showed
# +1 to +3 % on the causal rows (within that run's spread): bench_attention --d 128 --seq16k --lazy, handles rotated,
# three processes.
set -uo pipefail
OUT="${OUT:-/tmp/run84}"; mkdir -p "$OUT"; export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cache84
for i in 1 2 3; do
  timeout 150 gpu-bin/bench_attention --d 128 --seq16k --lazy > "$OUT/bench-$i.log" 2> "$OUT/bench-$i.err"
  echo "bench $i rc=$?"
done
for i in 1 2 3; do awk '$6=="lazy"{l[$1" "$5]=$8} $6=="default"{d[$1" "$5]=$8} END{for(k in l) printf "%s %.3f\n", k, l[k]/d[k]}' "$OUT/bench-$i.log" | sort -n > "$OUT/r$i"; done
paste "$OUT/r1" "$OUT/r2" "$OUT/r3" | awk '{print "seq "$1" causal "$2": lazy/default "$3" "$6" "$9}'
