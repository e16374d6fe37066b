#!/usr/bin/env bash
# run23: where the d = 64 consumers wait, per SASS instruction (ncu SourceCounters: warp-state PC
# sampling), for the default kernels at 1k keys (non-causal: 3 consumers, persistent; causal: 2 consumers,
# LPT) and at 16k keys (non-causal, one CTA per tile) for comparison.
set -uo pipefail
BIN=gpu-bin
OUT="${OUT:-/tmp/run23}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 PATH="$PATH:/usr/local/cuda/bin" CUTE_CACHE_DIR=/tmp/cute-cache-run23
W=/tmp/run23; mkdir -p $W
{
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv
  ncu --version | tail -1
  for spec in "nc1k cute_attention90_bf16_d64_192x128_persistent_direct_o" \
              "c1k cute_attention90_bf16_d64_128x128_causal_persistent_direct_o_lpt32" \
              "nc16k cute_attention90_bf16_d64_192x128_direct_o"; do
    set -- $spec
    extra=""; [ "$1" = nc16k ] && extra="--seq16k"
    timeout 150 ncu --kernel-name "$2" --launch-skip 1 --launch-count 1 --section SourceCounters \
      --section WarpStateStats --section SpeedOfLight -f -o "$W/$1" "$BIN/bench_attention" --d 64 --quick $extra \
      > "$W/$1-run.txt" 2>&1
    echo "ncu $1 rc=$?"; tail -3 "$W/$1-run.txt"
    ncu -i "$W/$1.ncu-rep" --page source --csv --print-source sass > "$W/$1-sass.csv" 2> "$W/$1-sass.err"
    echo "source page $1 rc=$? lines $(wc -l < "$W/$1-sass.csv")"; head -c 600 "$W/$1-sass.err"
    ncu -i "$W/$1.ncu-rep" --page details > "$W/$1-details.txt" 2>&1
  done
} > "$OUT/run23.txt" 2>&1
tar czf "$OUT/run23-sass.tgz" -C $W $(cd $W && ls *-sass.csv *-details.txt *-run.txt 2>/dev/null)
cat "$OUT/run23.txt"
