#!/usr/bin/env bash
# run67 (session 6): the plan with no ping-pong for d = 128 causal and O rescaled before each P·V for d = 256 causal
# (run66). attention.sh tests sanitize (+ sm90_tuning_prefetch_q), then the sweep with --pp-rescale-after (ping-pong
# and O rescaled after each P·V: the plan before this change on those rows) in one process, and torch SDPA.
MEMCHECK="varlen_packed_sequences varlen_lengths_and_heads different_lengths_bhsd_d128 sm90_block_n_tiles sm90_tuning_dynamic sm90_tail_tiles sm90_tuning_prefetch_q" \
RACECHECK="varlen_packed_sequences schedules_small different_lengths_bhsd_d128 sm90_tail_tiles sm90_tuning_prefetch_q sm90_tuning_dynamic sm90_block_n_tiles" \
RUN=${RUN:-run67} BENCH_FLAGS="--d256 --seq16k --pp-rescale-after" bash gpu/logs/attention90/run40-commands.sh
