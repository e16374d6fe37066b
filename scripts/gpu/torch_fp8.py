"""torch._scaled_mm on the shapes of bench_fp8, for the record (the GPU machine has PyTorch).

A (M,K) row-major e4m3 times B (K,N) column-major e4m3 (stored as (N,K) row-major, transposed), per-tensor
f32 scales (device scalars), D (M,N) bf16; uniform [-1, 1) data rounded to e4m3; with use_fast_accum off
(torch's default: cuBLASLt promotes partial sums) and on. CUDA events, median of 5 rounds of samples of
about 40 TFLOP (as bench_fp8), each after an untimed sample of the same call (settled, as bench_fp8 and
torch_matmul.py). Until session 21 the samples were about 4 TFLOP after two untimed calls; on an H100
(gpu/logs/matmul/run181) they read up to 14 % above bench_fp8's cuBLASLt figures of the same shapes.
Usage: python3 scripts/gpu/torch_fp8.py
"""
import statistics

import torch

from torch_timing import time_ms

SHAPES = [(4096, 4096, 4096), (8192, 8192, 8192), (8192, 14336, 4096), (8192, 4096, 14336),
          (128, 8192, 8192)]


def main():
    print(f"device: {torch.cuda.get_device_name()} torch {torch.__version__}")
    print("| shape | torch._scaled_mm TFLOP/s (fast accum off) | (fast accum on) |")
    print("| --- | --- | --- |")
    one = torch.ones((), device="cuda", dtype=torch.float32)
    for m, n, k in SHAPES:
        a = torch.rand(m, k, device="cuda").mul_(2).sub_(1).to(torch.float8_e4m3fn)
        b = torch.rand(n, k, device="cuda").mul_(2).sub_(1).to(torch.float8_e4m3fn).t()
        flops = 2.0 * m * n * k
        iters = max(5, min(1000, int(40e12 / flops)))  # samples of about 40 TFLOP, as bench_fp8
        row = []
        for fast in (False, True):
            fn = lambda: torch._scaled_mm(a, b, scale_a=one, scale_b=one, out_dtype=torch.bfloat16,
                                          use_fast_accum=fast)
            runs = [time_ms(fn, iters, warmup=iters) for _ in range(5)]
            row.append(flops / statistics.median(runs) / 1e9)
        print(f"| {m}x{n}x{k} | {row[0]:.0f} | {row[1]:.0f} |")


if __name__ == "__main__":
    main()
