#!/usr/bin/env bash
# run121 (session 13): the second run of run120's tables (bash gpu/logs/matmul/run120/commands.sh), the
# per-warp stmatrix TMA-store epilogue.
OUT="${OUT:-/tmp/run121}" bash gpu/logs/matmul/run120/commands.sh
