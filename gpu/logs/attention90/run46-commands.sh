#!/usr/bin/env bash
# run46 (binaries of branch attention-cross-tiles before its last commit): run45's commands on the second crossing design (the last P·V, then the next first S; the epilogue waits for
# the P·V only and stores O while that S computes).
# Same steps: the crossing test, attention.sh tests, memcheck and racecheck of it, the sweep with --no-cross, torch.
OUT="${OUT:-/tmp/run46}" CUTE_CACHE_DIR="${CUTE_CACHE_DIR:-/tmp/cute-cache-run46}" bash gpu/logs/attention90/run45-commands.sh
