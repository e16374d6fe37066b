#!/usr/bin/env bash
# run47 (binaries of branch attention-cross-tiles, d9559a5): run46 with the next tile's first S issued after the hand-over of the last turn (outside the ping-pong
# order, so a wait for its Q or K does not hold the other consumer).  Then --no-cross, torch.
# run46's steps (run45-commands.sh; BENCH_ONLY=1 in that call: the crossing test and the sweep only).
OUT="${OUT:-/tmp/run47}" CUTE_CACHE_DIR="${CUTE_CACHE_DIR:-/tmp/cute-cache-run47}" bash gpu/logs/attention90/run45-commands.sh
