#!/usr/bin/env bash
# run97 (session 9, H200): SM clock and instant power (nvidia-smi every 50 ms) while our d = 256 16k attention
# and cuDNN's run for about 2.5 s each, causal and not: is ours at the power cap with a lower clock?
set -uo pipefail
OUT="${OUT:-/tmp/run97}"; mkdir -p "$OUT"; export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run97
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw.instant,temperature.gpu --format=csv,noheader -lms 50 > "$OUT/smi.csv" 2>&1 &
smi=$!
stamp() { while IFS= read -r l; do echo "$(date +%T.%N) $l"; done; }
echo "$(date +%T.%N) start" > "$OUT/marks.txt"
timeout 90 gpu-bin/bench_attention --d 256 --seq16k --quick --sample-tflop 2000 2>&1 | stamp >> "$OUT/marks.txt"
cd scripts/gpu && timeout 60 python3 - >> "$OUT/marks.txt" 2>&1 <<'PY'
import time, datetime, torch, torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel
q, k, v = [torch.randn(1, 8, 16384, 256, device="cuda", dtype=torch.bfloat16) for _ in range(3)]
now = lambda: datetime.datetime.now().strftime("%H:%M:%S.%f")
for causal in (False, True):
    with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
        for _ in range(3): F.scaled_dot_product_attention(q, k, v, is_causal=causal)
        torch.cuda.synchronize(); print(now(), f"cudnn causal={causal} begin", flush=True)
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        n = 800 if not causal else 1600
        s.record()
        for _ in range(n): F.scaled_dot_product_attention(q, k, v, is_causal=causal)
        e.record(); e.synchronize()
        flops = 4.0 * 8 * 16384**2 * 256 / (2 if causal else 1)
        print(now(), f"cudnn causal={causal} end {flops / (s.elapsed_time(e) / n) / 1e9:.1f} TFLOP/s", flush=True)
PY
kill $smi
cd "$OLDPWD"
cat "$OUT/marks.txt" | grep -v "^\s*$" | tail -20
python3 - "$OUT" <<'PY'
import sys, csv, datetime as dt, statistics as st
out = sys.argv[1]
def t(s): return dt.datetime.strptime(s.strip()[:15], "%H:%M:%S.%f")
marks = [l.split(" ", 1) for l in open(f"{out}/marks.txt") if l[:2].isdigit()]
rows = [r for r in csv.reader(open(f"{out}/smi.csv")) if len(r) >= 4 and "MHz" in r[1]]
smp = [(t(r[0].split()[1]), float(r[1].split()[0]), float(r[2].split()[0])) for r in rows]
wins = []
prev = None
for ts, text in marks:
    if "s=16384" in text or "end" in text:
        wins.append((text.strip()[:60], prev, t(ts)))
    prev = t(ts)
for name, a, b in wins:
    sel = [(c, p) for (x, c, p) in smp if a <= x <= b and p > 300]
    if sel:
        print(f"{name}: {len(sel)} samples > 300 W, clock median {st.median(c for c, _ in sel):.0f} MHz, power median {st.median(p for _, p in sel):.0f} W")
PY
