#!/usr/bin/env bash
# run89 (session 9, H200): the autotuner's time for every alternative (CUTE_AUTOTUNE_LOG) on the shapes
# furthest behind cuBLASLt in run 82/83 (decode-like M, small MN with long K, strided batch), each in its
# own process (bench_matmul --tuned --shape); then bench_matmul --quick and bench_hopper broadcast with
# the SM clock and power sampled every 100 ms (why bench_hopper read 10-15 % more than bench_matmul).
set -uo pipefail
OUT="${OUT:-/tmp/run89}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run89 CUTE_AUTOTUNE_LOG=1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv > "$OUT/gpu.txt"
for s in 1,16,8192,8192 1,128,8192,8192 1,256,2048,32768 32,1024,1024,1024 1,16384,8192,1024; do
  t=$SECONDS
  timeout 150 gpu-bin/bench_matmul --tuned --shape $s >> "$OUT/tuned.log" 2>&1
  echo "tuned $s rc=$? $((SECONDS-t))s"
done
grep -v "^cute autotune" "$OUT/tuned.log" | grep "^|" 
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu --format=csv,noheader -lms 100 > "$OUT/smi.csv" &
smi=$!
date +%T.%N > "$OUT/phases.txt"
timeout 120 gpu-bin/bench_matmul --shape 1,8192,8192,8192 > "$OUT/matmul-8192.log" 2>&1; date +%T.%N >> "$OUT/phases.txt"
timeout 200 gpu-bin/bench_hopper broadcast > "$OUT/hopper.log" 2>&1; date +%T.%N >> "$OUT/phases.txt"
kill $smi
cat "$OUT/matmul-8192.log" | grep "^|"; head -12 "$OUT/hopper.log"; cat "$OUT/phases.txt"
python3 - "$OUT" <<'PY'
import sys, csv, datetime as dt
out = sys.argv[1]
ph = [l.strip()[:12] for l in open(f"{out}/phases.txt")]
rows = [r for r in csv.reader(open(f"{out}/smi.csv")) if len(r) >= 4]
def t(s): return dt.datetime.strptime(s.strip()[-12:], "%H:%M:%S.%f").time()
for name, a, b in [("bench_matmul 8192^3", ph[0], ph[1]), ("bench_hopper broadcast", ph[1], ph[2])]:
    sel = [r for r in rows if t(a) <= t(r[0]) <= t(b)]
    clk = sorted(float(r[1].split()[0]) for r in sel); pw = sorted(float(r[2].split()[0]) for r in sel if "W" in r[2])
    busy = [c for c, p in zip([float(r[1].split()[0]) for r in sel], [float(r[2].split()[0]) for r in sel]) if p > 300]
    print(name, len(sel), "samples; clock median", clk[len(clk)//2] if clk else None, "power median", pw[len(pw)//2] if pw else None, "clock at >300 W median", sorted(busy)[len(busy)//2] if busy else None)
PY
