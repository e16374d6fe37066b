#!/usr/bin/env bash
# run61 (session 6): the plan with Q prefetched into L2 (d = 256 causal, d = 128 non-causal persistent).
# attention.sh tests sanitize (+ memcheck/racecheck of sm90_tuning_prefetch_q), then the sweep with --no-prefetch-q
# (the plan without it) interleaved in one process, and torch SDPA.
MEMCHECK="varlen_packed_sequences varlen_lengths_and_heads different_lengths_bhsd_d128 sm90_block_n_tiles sm90_tuning_dynamic sm90_tail_tiles sm90_tuning_prefetch_q" \
RACECHECK="varlen_packed_sequences schedules_small different_lengths_bhsd_d128 sm90_tail_tiles sm90_tuning_prefetch_q sm90_tuning_dynamic" \
RUN=${RUN:-run61} BENCH_FLAGS="--d256 --seq16k --no-prefetch-q" bash gpu/logs/attention90/run40-commands.sh
