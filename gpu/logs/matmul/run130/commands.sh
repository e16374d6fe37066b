#!/usr/bin/env bash
# run130 (session 14): the second run of the tables (GEMM and FP8) of run129's state.
OUT="${OUT:-/tmp/run130}" TABLES_ONLY=1 bash gpu/logs/matmul/run129/commands.sh
