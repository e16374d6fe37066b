#!/usr/bin/env bash
# run63 (session 6): the plan with Q prefetched into L2 and 192-key tiles for d = 128 (where it had 176).
# attention.sh tests sanitize (+ sm90_tuning_prefetch_q), then the sweep with --no-prefetch-q and
# --sm90-block-n 128:176 (the former d = 128 wide tile, also applied where the plan keeps 128 keys) in one process,
# and torch SDPA.
MEMCHECK="varlen_packed_sequences varlen_lengths_and_heads different_lengths_bhsd_d128 sm90_block_n_tiles sm90_tuning_dynamic sm90_tail_tiles sm90_tuning_prefetch_q" \
RACECHECK="varlen_packed_sequences schedules_small different_lengths_bhsd_d128 sm90_tail_tiles sm90_tuning_prefetch_q sm90_tuning_dynamic sm90_block_n_tiles" \
RUN=${RUN:-run63} BENCH_FLAGS="--d256 --seq16k --no-prefetch-q --sm90-block-n 128:176" bash gpu/logs/attention90/run40-commands.sh
