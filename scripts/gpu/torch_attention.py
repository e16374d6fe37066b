"""torch's scaled_dot_product_attention on the sweep of issue 15 (the shapes of bench_attention), with the
cuDNN and the flash (FlashAttention 2) backends side by side.

bf16, 16k tokens per batch (batch = 16384 / seq), hidden 2048 (heads = 2048 / d), d in {64, 128, 256},
seq in {1k, 4k, 16k}, causal and not; (B, H, S, D) tensors (torch's layout), random normal data. Rounds
interleave the shapes and backends; CUDA events; medians of the rounds. FLOPs = 4*B*H*S^2*D, halved for
causal. Each sample: about `--sample-tflop` TFLOP of calls (default 20, tens of ms, as bench_attention; 2 with
--quick), after an untimed sample of the same call (settled, as bench_attention since session 10). Usage: python3 scripts/gpu/torch_attention.py [--quick] [--rounds N] [--dims 64,128] [--seqs 1024,4096]
[--sample-tflop F] (dims, seqs: only these, instead of the sweep's or --quick's)
"""
import statistics
import sys

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

from torch_timing import time_ms

TOKENS, HIDDEN = 16384, 2048
BACKENDS = {"cudnn": SDPBackend.CUDNN_ATTENTION, "flash": SDPBackend.FLASH_ATTENTION}


def main():
    quick = "--quick" in sys.argv
    rounds = int(sys.argv[sys.argv.index("--rounds") + 1]) if "--rounds" in sys.argv else (1 if quick else 5)
    tflop = float(sys.argv[sys.argv.index("--sample-tflop") + 1]) if "--sample-tflop" in sys.argv else (2.0 if quick else 20.0)
    dims = (64, 128) if quick else (64, 128, 256)
    seqs = (1024, 4096) if quick else (1024, 4096, 16384)
    pick = lambda flag, default: (tuple(int(x) for x in sys.argv[sys.argv.index(flag) + 1].split(","))
                                  if flag in sys.argv else default)
    dims, seqs = pick("--dims", dims), pick("--seqs", seqs)
    shapes = [(s, d, c) for d in dims for s in seqs for c in (False, True)]
    torch.manual_seed(2026)
    tensors = {}
    times = {(sh, b): [] for sh in shapes for b in BACKENDS}
    for _ in range(rounds):
        for sh in shapes:
            s, d, causal = sh
            if sh not in tensors:
                shape = (TOKENS // s, HIDDEN // d, s, d)
                tensors.clear()
                tensors[sh] = [torch.randn(shape, device="cuda", dtype=torch.bfloat16) for _ in range(3)]
            q, k, v = tensors[sh]
            flops = 4.0 * (TOKENS // s) * (HIDDEN // d) * s * s * d / (2 if causal else 1)
            iters = max(3, min(int(25 * tflop), int(tflop * 1e12 / flops)))
            for name, backend in BACKENDS.items():
                def call():
                    with sdpa_kernel(backend):
                        F.scaled_dot_product_attention(q, k, v, is_causal=causal)
                try:
                    times[(sh, name)].append(time_ms(call, iters, warmup=iters))  # settled: an untimed sample first
                except RuntimeError as e:  # a backend that does not take the shape
                    times[(sh, name)].append(float("nan"))
                    print(f"# {name} {sh}: {str(e).splitlines()[0]}", file=sys.stderr)
    print(f"device: {torch.cuda.get_device_name()} torch {torch.__version__}, {rounds} rounds of samples of {tflop} TFLOP, medians")
    print("| seq | d | causal | cuDNN TFLOP/s | flash TFLOP/s |")
    print("| --- | --- | --- | --- | --- |")
    for sh in shapes:
        s, d, causal = sh
        flops = 4.0 * (TOKENS // s) * (HIDDEN // d) * s * s * d / (2 if causal else 1)
        tf = [flops / statistics.median(times[(sh, b)]) / 1e9 for b in BACKENDS]
        print(f"| {s} | {d} | {causal} | {tf[0]:.0f} | {tf[1]:.0f} |")


if __name__ == "__main__":
    main()
