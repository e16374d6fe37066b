#!/usr/bin/env bash
# run49 (session 4): d = 64 causal up to 1k keys with O through TMA by default. attention.sh tests sanitize; the sweep
# with --per-tile (as run40); d = 64 against --direct-o (the stores before); torch SDPA.
O_FLAG=--direct-o OUT="${OUT:-/tmp/run49}" CUTE_CACHE_DIR="${CUTE_CACHE_DIR:-/tmp/cute-cache-run49}" bash gpu/logs/attention90/run48-commands.sh
