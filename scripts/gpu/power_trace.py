#!/usr/bin/env python3
"""Power and clock trace of GEMM contenders (issue 13: what sets the sustained speed under the power cap).

  power_trace.py sample TRACE.csv      sample power (W), SM clock (MHz), temperature and the clock event
                                       reasons every ~50 ms (NVML through pynvml, else nvidia-smi) until killed
  power_trace.py join TRACE.csv LOG    for each `steady ...` line of `bench_matmul --steady` in LOG, the mean
                                       power and SM clock over its window (its first 0.5 s left out) and the
                                       energy per TFLOP (J), one table row each
"""
import subprocess
import sys
import time


def sampler():
    try:
        import pynvml

        pynvml.nvmlInit()
        h = pynvml.nvmlDeviceGetHandleByIndex(0)

        def read():
            return (
                pynvml.nvmlDeviceGetPowerUsage(h) / 1000.0,
                pynvml.nvmlDeviceGetClockInfo(h, pynvml.NVML_CLOCK_SM),
                pynvml.nvmlDeviceGetTemperature(h, pynvml.NVML_TEMPERATURE_GPU),
                pynvml.nvmlDeviceGetCurrentClocksThrottleReasons(h),
            )

        return read, 0.05
    except Exception as e:  # no pynvml: nvidia-smi per sample
        print(f"power_trace: pynvml unavailable ({e}); using nvidia-smi", file=sys.stderr)
        q = "power.draw,clocks.sm,temperature.gpu,clocks_event_reasons.active"

        def read():
            out = subprocess.run(
                ["nvidia-smi", f"--query-gpu={q}", "--format=csv,noheader,nounits", "-i", "0"],
                capture_output=True, text=True, check=True,
            ).stdout.strip().split(", ")
            return float(out[0]), int(out[1]), int(out[2]), int(out[3], 16)

        return read, 0.0


def sample(path):
    read, period = sampler()
    with open(path, "w", buffering=1) as f:
        f.write("unix_ms,power_w,sm_mhz,temp_c,reasons\n")
        while True:
            t = time.time() * 1e3
            p, c, temp, r = read()
            f.write(f"{t:.0f},{p:.1f},{c},{temp},{r:#x}\n")
            time.sleep(period)


def join(trace, log):
    rows = [l.strip().split(",") for l in open(trace).readlines()[1:] if l.count(",") == 4]
    samples = [(float(r[0]), float(r[1]), float(r[2]), int(r[3]), r[4]) for r in rows]
    print("| shape | round | contender | TFLOP/s | mean W | mean SM MHz | J per TFLOP | max temp C | samples | reasons |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for line in open(log):
        f = line.split()
        if len(f) != 8 or f[0] != "steady":
            continue
        shape, rnd, name, t0, t1, tf = f[1], f[3], f[4], float(f[5]), float(f[6]), float(f[7])
        w = [s for s in samples if t0 + 500 <= s[0] <= t1]
        if not w:
            print(f"| {shape} | {rnd} | {name} | {tf:.0f} | no samples | | | | 0 | |")
            continue
        pw = sum(s[1] for s in w) / len(w)
        mhz = sum(s[2] for s in w) / len(w)
        reasons = sorted({s[4] for s in w})
        print(
            f"| {shape} | {rnd} | {name} | {tf:.0f} | {pw:.0f} | {mhz:.0f} | {pw / tf:.3f} | "
            f"{max(s[3] for s in w)} | {len(w)} | {' '.join(reasons)} |"
        )


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "sample":
        sample(sys.argv[2])
    elif len(sys.argv) == 4 and sys.argv[1] == "join":
        join(sys.argv[2], sys.argv[3])
    else:
        sys.exit(__doc__)
