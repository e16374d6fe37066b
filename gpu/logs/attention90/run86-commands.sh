#!/usr/bin/env bash
# run86 (session 8, H200): d = 64's tuning options timed again with the handles rotated (the earlier A/Bs favoured the
# default's place), and d = 256 persistent with the Q prefetch (run81: +1.0..+1.5 % at 1k non-causal): two processes.
set -uo pipefail
OUT="${OUT:-/tmp/run86}"; mkdir -p "$OUT"; export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cache86
for i in 1 2; do
  timeout 200 gpu-bin/bench_attention --d 64 --seq16k --persistent --consumers2 --consumers3 --stages3 --lazy --sd0 \
    --dynamic --rescale-early --schedules --persistent-pq > "$OUT/bench64-$i.log" 2> "$OUT/bench64-$i.err"
  echo "bench64 $i rc=$?"
  timeout 100 gpu-bin/bench_attention --d 256 --persistent-pq > "$OUT/bench256-$i.log" 2> "$OUT/bench256-$i.err"
  echo "bench256 $i rc=$?"
done
python3 - "$OUT" <<'PY'
import sys, collections
out = sys.argv[1]
for name in ("bench64", "bench256"):
    runs = []
    for i in (1, 2):
        r = {}
        for line in open(f"{out}/{name}-{i}.log"):
            p = line.split()
            if len(p) == 8 and p[4] in ("true", "false"):
                r[(p[0], p[4], p[5])] = float(p[7])
        runs.append(r)
    shapes = sorted({(k[0], k[1]) for k in runs[0]}, key=lambda s: (int(s[0]), s[1]))
    handles = list(dict.fromkeys(k[2] for k in runs[0]))
    for s in shapes:
        cells = []
        for h in handles:
            if (s + (h,)) in runs[0]:
                cells.append(f"{h}={runs[0][s + (h,)] / runs[0][s + ('default',)]:.3f}/{runs[1][s + (h,)] / runs[1][s + ('default',)]:.3f}")
        print(name, s[0], "causal" if s[1] == "true" else "nc", " ".join(cells))
PY
