#!/usr/bin/env bash
# run186 (session 22, H100, the call after run185): (1) the rest of the attention call's GPU tests on this
# session's code (run185's 200-s limit stopped them after the first 14 of 30, all passing); (2) the
# attention sweep (ours, then torch SDPA with cuDNN and flash) again on an H100: session 21's second run
# (run184) lost ours, so run 181's was the only H100 sweep of ours.
set -uo pipefail
OUT="${OUT:-/tmp/run186}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1
S="$OUT/summary.txt"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv > "$S"
done14="alternative_tiles bad_buffers_fail_before_launch chained_calls_with_dependent_launch
 different_lengths_bhsd_d128 direct_o_epilogue grouped_query_and_multi_query head_dim_256
 hopper_kernel_is_chosen_on_sm90 long_sequences_d128 long_sequences_d256 long_sequences_d64
 persistent_tiles schedules_small sm90_block_n_tiles"
skips=(); for t in $done14; do skips+=(--skip "attention_run::$t"); done
s=$SECONDS; timeout 290 gpu-bin/test-attention_run --test-threads=1 --exact "${skips[@]}" > "$OUT/test-attention_run.log" 2>&1
echo "test-attention_run (the 16 after run185's 14) rc=$? $((SECONDS-s))s: $(grep -cE ' ok$' "$OUT/test-attention_run.log") ok, $(grep -E '^test result' "$OUT/test-attention_run.log")" >> "$S"
mkdir -p "$OUT/attention"
OUT="$OUT/attention" bash gpu/logs/attention-settled/commands.sh >> "$S" 2>&1
cat "$S"
bash scripts/gpu/pack_out.sh "$OUT"
