#!/usr/bin/env bash
# run74 (session 7): the final binary of the session (the narrow last key block for non-causal keys that leave one;
# own_key_blocks reverted): attention.sh tests, then the sweep with --no-narrow-tail and torch SDPA. Run 75: the same
# without the tests, the next call.
STEPS=tests RUN=${RUN:-run74} BENCH_FLAGS="--d256 --seq16k --no-narrow-tail" bash gpu/logs/attention90/run40-commands.sh
