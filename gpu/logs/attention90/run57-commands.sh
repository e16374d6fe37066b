#!/usr/bin/env bash
# run57 (session 5): the plan's new schedules (no ping-pong for d = 64 causal and d = 128 non-causal up to 1k keys,
# O rescaled before each P·V for d = 256 non-causal and d = 128 non-causal up to 1k and from 8k keys).
# attention.sh tests sanitize, the sweep with --pp-rescale-after (every shape's schedule before session 5)
# interleaved in one process, torch SDPA. (run58 was this script with STEPS="", which made attention.sh run its
# default steps, tests sanitize bench torch, before the sweep.)
RUN=run57 BENCH_FLAGS="--d256 --seq16k --pp-rescale-after" bash gpu/logs/attention90/run40-commands.sh
