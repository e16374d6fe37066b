#!/usr/bin/env bash
# run73 (session 7): causal consumers running only the key blocks their own rows see (Sm90AttentionConfig::own_key_blocks,
# the plan's for every causal variant; the narrow last block non-causal as in run72). attention.sh tests sanitize
# (+ sm90_own_key_blocks), then the sweep with --no-own-blocks in two processes, and torch SDPA.
MEMCHECK="different_lengths_bhsd_d128 sm90_tail_tiles sm90_tuning_dynamic sm90_own_key_blocks" \
RACECHECK="schedules_small sm90_tail_tiles sm90_tuning_dynamic sm90_own_key_blocks" \
RUN=${RUN:-run73} BENCH_FLAGS="--d256 --seq16k --no-own-blocks" bash gpu/logs/attention90/run40-commands.sh
echo "second process:"
timeout 200 gpu-bin/bench_attention --d256 --seq16k --no-own-blocks 2> "${OUT:-/tmp/run73}/bench2.err"
