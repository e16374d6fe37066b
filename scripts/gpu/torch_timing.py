"""CUDA-event timing shared by the torch baseline scripts (torch_matmul.py, torch_fp8.py)."""
import torch


def time_ms(fn, iters, warmup=2):
    """Milliseconds per call of `fn`, over `iters` calls after `warmup` untimed ones."""
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    for _ in range(warmup):
        fn()
    start.record()
    for _ in range(iters):
        fn()
    end.record()
    end.synchronize()
    return start.elapsed_time(end) / iters
