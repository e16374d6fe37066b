#!/usr/bin/env bash
# run70 (session 7): the narrow last key block (Sm90AttentionConfig::narrow_tail, the plan's for d = 128 4k/16k and
# d = 256 4k non-causal). attention.sh tests sanitize (+ sm90_narrow_tail), then the sweep with --no-narrow-tail in
# one process (rows without a narrow block: the same kernel twice, the noise floor), and torch SDPA.
MEMCHECK="varlen_packed_sequences different_lengths_bhsd_d128 sm90_block_n_tiles sm90_tail_tiles sm90_narrow_tail" \
RACECHECK="varlen_packed_sequences schedules_small sm90_tail_tiles sm90_narrow_tail" \
RUN=${RUN:-run70} BENCH_FLAGS="--d256 --seq16k --no-narrow-tail" bash gpu/logs/attention90/run40-commands.sh
