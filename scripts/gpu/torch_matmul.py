"""torch.matmul on the shapes of bench_matmul, for the record (the GPU machine has PyTorch).

A (M,K) row-major times B (K,N) column-major (B stored as (N,K) row-major, transposed), D (M,N), uniform
[-1, 1) data, bf16 and f16; CUDA events, median of 5 rounds of `iters` calls (about 20 TFLOP each, each after as many untimed ones). Prints TFLOP/s per shape.
Usage: python3 scripts/gpu/torch_matmul.py
"""
import statistics

import torch

from torch_timing import time_ms

SHAPES = [(4096, 4096, 4096), (8192, 8192, 8192), (8192, 14336, 4096), (8192, 4096, 14336),
          (16384, 8192, 1024), (2048, 2048, 2048), (1024, 8192, 8192), (128, 8192, 8192),
          (16, 8192, 8192), (4095, 4097, 1023)]


def main():
    print(f"device: {torch.cuda.get_device_name()} torch {torch.__version__}")
    print("| shape | torch.matmul TFLOP/s |")
    print("| --- | --- |")
    for dtype in (torch.bfloat16, torch.float16):
        for m, n, k in SHAPES:
            a = torch.rand(m, k, device="cuda", dtype=torch.float32).mul_(2).sub_(1).to(dtype)
            b = torch.rand(n, k, device="cuda", dtype=torch.float32).mul_(2).sub_(1).to(dtype).t()
            flops = 2.0 * m * n * k
            iters = max(3, min(500, int(20e12 / flops)))  # samples of about 20 TFLOP, as bench_matmul
            runs = [time_ms(lambda: torch.matmul(a, b), iters, warmup=iters) for _ in range(5)]
            tf = flops / statistics.median(runs) / 1e9
            name = "bf16" if dtype == torch.bfloat16 else "f16"
            print(f"| {name} {m}x{n}x{k} | {tf:.0f} |")


if __name__ == "__main__":
    main()
