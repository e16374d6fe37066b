#!/usr/bin/env bash
# run55 (session 5): O rescaled just before each P·V (Sm90AttentionConfig::rescale_before_pv, FlashAttention 3's
# order for d > 128), with and without ping-pong, against the default (and nopp / serial) in one process;
# test-attention_run (the new sm90_tuning_rescale_before_pv included), memcheck and racecheck of the new test
# (short cases); torch SDPA. run56: the same sweep again with CHECKS=0.
MEMCHECK=sm90_tuning_rescale_before_pv RACECHECK=sm90_tuning_rescale_before_pv RUN=${RUN:-run55} \
  BENCH_FLAGS="--d256 --seq16k --schedules --rescale-early --rescale-early-nopp" \
  bash gpu/logs/attention90/run40-commands.sh
