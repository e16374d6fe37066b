#!/usr/bin/env bash
# run54 (session 5): narrowed last key blocks (Sm90AttentionConfig::narrow_last, default on; binaries built from
# branch attention-narrow-last, commit 8a2258c: --wide-last exists there only). attention.sh tests sanitize; the
# sweep with --wide-last (the same kernels without the narrowing) interleaved in one process; torch SDPA.
RUN=run54 BENCH_FLAGS="--d256 --seq16k --wide-last" bash gpu/logs/attention90/run40-commands.sh
