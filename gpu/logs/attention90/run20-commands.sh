#!/usr/bin/env bash
# run20 (consumers whose rows all lie past the sequence issue no wgmma and no softmax, `live`): the poly_exp2
# unit test (range fixed), the whole attention suite, the bench of d = 64 old (gpu-bin-old: before `live`)
# and new interleaved in two rounds, memcheck and racecheck of the short 3-consumer cases, torch SDPA.
set -uo pipefail
BIN=gpu-bin; OLD=gpu-bin-old
OUT="${OUT:-/tmp/run20}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 PATH="$PATH:/usr/local/cuda/bin" CUTE_CACHE_DIR=/tmp/cute-cache-run20
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv > "$OUT/gpu.txt" 2>&1
timeout 30 "$BIN/test-run" --exact gpu_run::poly_exp2_matches_exp2 --nocapture > "$OUT/test-poly-exp2.log" 2>&1
echo "poly_exp2 rc=$?: $(grep -E 'max relative|^test result' "$OUT/test-poly-exp2.log" | tr '\n' ' ')"
s=$SECONDS
timeout 150 "$BIN/test-attention_run" --test-threads=16 > "$OUT/test-attention_run.log" 2>&1
echo "suite rc=$? $((SECONDS-s))s: $(grep -E '^test result' "$OUT/test-attention_run.log")"; grep -E "FAILED|FAIL |panicked" "$OUT/test-attention_run.log" | head -10
for r in 1 2; do
  for which in old new; do
    b="$BIN"; [ $which = old ] && b="$OLD"
    s=$SECONDS
    timeout 60 "$b/bench_attention" --d 64 > "$OUT/bench-$which-$r.log" 2> "$OUT/bench-$which-$r.err"
    echo "bench $which round $r rc=$? $((SECONDS-s))s"
  done
done
paste <(awk '{print $1, $4, $5, $8}' "$OUT/bench-old-2.log") <(awk '{print $8}' "$OUT/bench-new-2.log") <(awk '{print $8}' "$OUT/bench-old-1.log") <(awk '{print $8}' "$OUT/bench-new-1.log")
T=attention_run::sm90_tuning_consumers3
for tool in memcheck racecheck; do
  s=$SECONDS
  CUTE_ATTN_SHORT=1 timeout 75 compute-sanitizer --tool $tool --error-exitcode 9 "$BIN/test-attention_run" --test-threads=1 --exact $T > "$OUT/san-$tool-consumers3.log" 2>&1
  echo "$tool rc=$? $((SECONDS-s))s: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|^test result' "$OUT/san-$tool-consumers3.log" | tr '\n' ' ')"
done
s=$SECONDS
(cd scripts/gpu && timeout 40 python3 torch_attention.py --rounds 3 --dims 64 --seqs 1024,4096) > "$OUT/torch.log" 2>&1
echo "torch rc=$? $((SECONDS-s))s"; tail -6 "$OUT/torch.log"
