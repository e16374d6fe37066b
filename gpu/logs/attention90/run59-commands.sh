#!/usr/bin/env bash
# run59 (session 5): racecheck of attention_run::sm90_tuning_dynamic timed out (200 s) inside the sanitizer
# sequence of run54 and run58; here alone: once with --nocapture (racecheck-dynamic-alone.log, 12 s), six more
# racechecks (45 s limit each) and 15 plain runs (30 s limit each). Output of the call: run59-summary.log.
export CUTE_REQUIRE_GPU=1 PATH="$PATH:/usr/local/cuda/bin"
for i in 1 2 3 4 5 6; do s=$SECONDS; CUTE_ATTN_SHORT=1 timeout 45 compute-sanitizer --tool racecheck --error-exitcode 9 gpu-bin/test-attention_run --test-threads=1 --exact attention_run::sm90_tuning_dynamic --nocapture > $OUT/race$i.log 2>&1; echo "race $i rc=$? $((SECONDS-s))s"; done
for i in $(seq 1 15); do s=$SECONDS; timeout 30 gpu-bin/test-attention_run --test-threads=1 --exact attention_run::sm90_tuning_dynamic > $OUT/plain$i.log 2>&1; echo "plain $i rc=$? $((SECONDS-s))s"; done
