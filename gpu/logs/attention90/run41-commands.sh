#!/usr/bin/env bash
# run41: the final defaults again (the binary of run40, a second call): run40's commands with attention.sh
# tests only, then the same sweep and torch SDPA.
STEPS=tests OUT="${OUT:-/tmp/run41}" CUTE_CACHE_DIR=/tmp/cute-cache-run41 bash gpu/logs/attention90/run40-commands.sh
