"""PyTorch and CuPy peers for `gpu-lab bench --device cuda:0`: the same workloads the way a course notebook writes
them, timed like ours (warm-up, then the median of per-call times from CUDA events; host clock after a
synchronisation where copies from pageable memory are involved). Prints one JSON object: medians in ms and rates
in GB/s, which scripts/compare-peers.mjs puts beside the bench's JSON. --scale F (0 < F <= 1) shrinks the sizes as
the bench's --scale does. Run on the GPU machine:

    PYTHONPATH=python python3 -m gpu_lab_peers.tools.cuda_peers [--scale F]"""

import argparse
import json
import statistics
import time

from ..device_lock import device_lock
from . import scale_arg

GIB = 1 << 30


def events_ms(fn, repeats, warmup=3):
    import torch

    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    samples = []
    for _ in range(repeats):
        start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        samples.append(start.elapsed_time(stop))
    return statistics.median(samples)


def host_ms(fn, repeats, warmup=1, sync=True):
    import torch

    for _ in range(warmup):
        fn()
        torch.cuda.synchronize()
    samples = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        if sync:
            torch.cuda.synchronize()
        samples.append((time.perf_counter() - t0) * 1e3)
        torch.cuda.synchronize()
    return statistics.median(samples)


def measure_torch(out, scale):
    import torch

    dev = torch.device("cuda:0")
    out.update({"torch": torch.__version__, "cuda": torch.version.cuda})
    n = max(16, round(7000 * scale**0.5))
    for name, dtype, tf32 in (("fp32", torch.float32, False), ("tf32", torch.float32, True), ("fp16", torch.float16, False),
                              ("bf16", torch.bfloat16, False), ("fp64", torch.float64, False)):
        torch.backends.cuda.matmul.allow_tf32 = tf32
        a = torch.rand((n, n), device=dev, dtype=dtype)
        b = torch.rand((n, n), device=dev, dtype=dtype)
        out[f"gemm-{name}-{n}"] = events_ms(lambda: a @ b, 20 if name in ("fp32", "fp64") else 50)
        del a, b
    torch.backends.cuda.matmul.allow_tf32 = False
    ah = torch.rand((n, n))
    bh = torch.rand((n, n))
    out[f"gemm-fp32-with-copies-{n}"] = host_ms(lambda: (ah.to(dev) @ bh.to(dev)).cpu(), 5)
    del ah, bh

    size = max(1, round(GIB * scale))
    host = torch.empty(size, dtype=torch.uint8).fill_(7)
    pinned = torch.empty(size, dtype=torch.uint8, pin_memory=True).fill_(7)
    d = torch.empty(size, dtype=torch.uint8, device=dev)
    d2 = torch.empty(size, dtype=torch.uint8, device=dev)
    out["h2d-pinned-GBs"] = size / events_ms(lambda: d.copy_(pinned, non_blocking=True), 20) / 1e6
    out["d2h-pinned-GBs"] = size / events_ms(lambda: pinned.copy_(d, non_blocking=True), 20) / 1e6
    out["h2d-pageable-GBs"] = size / host_ms(lambda: d.copy_(host), 5) / 1e6
    out["d2h-pageable-GBs"] = size / host_ms(lambda: host.copy_(d), 3) / 1e6
    # Read + write counted, as ours.
    out["d2d-GBs"] = 2 * size / events_ms(lambda: d2.copy_(d), 20) / 1e6
    del host, pinned, d, d2

    tiny = torch.zeros(1, device=dev)
    out["empty-launch-only-us"] = host_ms(lambda: tiny.add_(1), 2000, warmup=100, sync=False) * 1e3
    out["empty-launch-sync-us"] = host_ms(lambda: tiny.add_(1), 2000, warmup=100) * 1e3


def measure_cupy(out, scale):
    try:
        import cupy as cp
    except ImportError as err:
        out["cupy"] = f"missing: {err}"
        return

    m = max(1, round(5_000_000 * scale))
    x = cp.random.random(m)
    y = cp.random.random(m)
    a, b, c = 3.5, 2.8, 10.0
    kernel = cp.ElementwiseKernel("float64 x, float64 y, float64 a, float64 b, float64 c", "float64 z",
                                  "z = a * x * x + b * y + c", "vector_function")

    def cupy_events(fn, repeats, warmup=10):
        for _ in range(warmup):
            fn()
        cp.cuda.Device().synchronize()
        samples = []
        for _ in range(repeats):
            start, stop = cp.cuda.Event(), cp.cuda.Event()
            start.record()
            fn()
            stop.record()
            stop.synchronize()
            samples.append(cp.cuda.get_elapsed_time(start, stop))
        return statistics.median(samples)

    out[f"vector-function-elementwise-kernel-{m}"] = cupy_events(lambda: kernel(x, y, a, b, c), 200)
    out[f"vector-function-ufuncs-{m}"] = cupy_events(lambda: a * x**2 + b * y + c, 200)
    xh, yh = cp.asnumpy(x), cp.asnumpy(y)

    def with_copies():
        return cp.asnumpy(kernel(cp.asarray(xh), cp.asarray(yh), a, b, c))

    out[f"vector-function-with-copies-{m}"] = host_ms(with_copies, 10)
    out["cupy"] = cp.__version__


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python3 -m gpu_lab_peers.tools.cuda_peers", description=__doc__.split("\n\n")[0])
    parser.add_argument("--scale", type=scale_arg, default=1.0, metavar="F", help="scale the sizes as gpu-lab bench --scale does")
    args = parser.parse_args(argv)
    # One run at a time per device per machine, as GPU Lab's own runs: torch is imported with the devices held.
    out = {}
    with device_lock(["cpu", "cuda:0"], "cuda_peers"):
        measure_torch(out, args.scale)
        measure_cupy(out, args.scale)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
