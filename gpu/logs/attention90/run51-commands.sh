#!/usr/bin/env bash
# run51 (session 4): the binary of run49 in a second call: attention.sh tests, the sweep with --per-tile, d = 64
# against --direct-o, torch SDPA (STEPS=tests).
STEPS="${STEPS:-tests}" O_FLAG=--direct-o OUT="${OUT:-/tmp/run51}" CUTE_CACHE_DIR="${CUTE_CACHE_DIR:-/tmp/cute-cache-run51}" bash gpu/logs/attention90/run48-commands.sh
