#!/usr/bin/env bash
# run71 (session 7): the narrow last key block, second version (the last block in a copy of its own: no branch
# joins with wgmmas in flight; run70's version had ptxas fence them, C7519, and measured 4-6 % slower).
# attention.sh tests sanitize (+ sm90_narrow_tail), then the sweep with --no-narrow-tail twice (two processes),
# and torch SDPA.
MEMCHECK="different_lengths_bhsd_d128 sm90_block_n_tiles sm90_tail_tiles sm90_narrow_tail" \
RACECHECK="schedules_small sm90_tail_tiles sm90_narrow_tail" \
RUN=${RUN:-run71} BENCH_FLAGS="--d256 --seq16k --no-narrow-tail" bash gpu/logs/attention90/run40-commands.sh
echo "second process:"
timeout 200 gpu-bin/bench_attention --d256 --seq16k --no-narrow-tail 2> "${OUT:-/tmp/run71}/bench2.err"
