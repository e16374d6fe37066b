#!/usr/bin/env bash
# run65 (session 6): the final binary's sweep (second call after run63): the plan, the plan without the Q prefetch,
# 176-key tiles for d = 128 (the former wide tile), persistent CTAs with the prefetch, one process; then torch SDPA.
RUN=${RUN:-run65} CHECKS=0 BENCH_FLAGS="--d256 --seq16k --no-prefetch-q --sm90-block-n 128:176 --persistent-pq" bash gpu/logs/attention90/run40-commands.sh
