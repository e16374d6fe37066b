#!/usr/bin/env bash
# run72 (session 7): the narrow last key block, third version: causal too (the first consumer's diagonal block,
# 64 keys of 128, d = 64 and 128 causal with 2 consumers), S zeroed in the narrow copy (scale-d = 0 serialized it).
# attention.sh tests sanitize (+ sm90_narrow_tail), then the sweep with --no-narrow-tail twice (two processes),
# and torch SDPA.
MEMCHECK="different_lengths_bhsd_d128 sm90_block_n_tiles sm90_tail_tiles sm90_narrow_tail" \
RACECHECK="schedules_small sm90_tail_tiles sm90_narrow_tail" \
RUN=${RUN:-run72} BENCH_FLAGS="--d256 --seq16k --no-narrow-tail" bash gpu/logs/attention90/run40-commands.sh
echo "second process:"
timeout 200 gpu-bin/bench_attention --d256 --seq16k --no-narrow-tail 2> "${OUT:-/tmp/run72}/bench2.err"
