#!/usr/bin/env bash
# run 3: correctness (GEMM run tests, matmul_run, memcheck + racecheck at 128^3) with the split-copy mainloop
# (the new default), then alone on the GPU: settle sweep (split vs burst copies, tiles), bench --square
# (default order) and bench --square --settle 100; clocks sampled throughout.
set -uo pipefail
B=gpu-bin-mma
export CUTE_REQUIRE_GPU=1 PATH="$PATH:/usr/local/cuda/bin"
chmod +x $B/bench_matmul $B/test-run $B/test-matmul_run
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv > "$OUT/run3-gpu.txt" 2>&1
timeout 100 $B/test-run gemm_ --test-threads=4 > "$OUT/run3-test-run-gemm.log" 2>&1 &
t1=$!
timeout 100 $B/test-matmul_run --test-threads=4 > "$OUT/run3-test-matmul_run.log" 2>&1 &
t2=$!
timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 $B/test-run --test-threads=1 --exact gpu_run::gemm_128x128x128 > "$OUT/run3-memcheck-gemm_128.log" 2>&1 &
m=$!
timeout 100 compute-sanitizer --tool racecheck --error-exitcode 9 $B/test-run --test-threads=1 --exact gpu_run::gemm_128x128x128 > "$OUT/run3-racecheck-gemm_128.log" 2>&1 &
r=$!
wait $t1; echo "test-run gemm rc=$? at ${SECONDS}s: $(grep -E '^test result' $OUT/run3-test-run-gemm.log)"
wait $t2; echo "test-matmul_run rc=$? at ${SECONDS}s: $(grep -E '^test result' $OUT/run3-test-matmul_run.log)"
wait $m; echo "memcheck rc=$? at ${SECONDS}s: $(grep -E 'ERROR SUMMARY|^test result' $OUT/run3-memcheck-gemm_128.log | tr '\n' ' ')"
wait $r; echo "racecheck rc=$? at ${SECONDS}s: $(grep -E 'RACECHECK SUMMARY|^test result' $OUT/run3-racecheck-gemm_128.log | tr '\n' ' ')"
grep -E "FAIL|panicked" $OUT/run3-test-*.log | head -10
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu,clocks_throttle_reasons.active --format=csv -lms 250 > "$OUT/run3-clocks.csv" 2>&1 &
smi=$!
CFGS="128,256,32,2,4,4,1,8,1,0 128,256,32,2,4,4,1,8,1,1 128,256,64,2,4,4,1,8,1,1 128,128,64,2,2,3,2,8,1,1 128,128,64,2,2,3,2,8,1,0"
timeout 60 $B/bench_matmul --sweep --rounds 4 --ms 20 --settle 100 $CFGS > "$OUT/run3-sweep-settle.log" 2>&1
echo "sweep rc=$? at ${SECONDS}s"; cat "$OUT/run3-sweep-settle.log"
timeout 25 $B/bench_matmul --square > "$OUT/run3-bench-square.log" 2>&1
echo "bench rc=$? at ${SECONDS}s"; cat "$OUT/run3-bench-square.log"
timeout 40 $B/bench_matmul --square --settle 100 > "$OUT/run3-bench-square-settle.log" 2>&1
echo "bench settle rc=$? at ${SECONDS}s"; cat "$OUT/run3-bench-square-settle.log"
kill $smi
