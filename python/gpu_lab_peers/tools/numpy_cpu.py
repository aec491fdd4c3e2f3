"""NumPy peer for `npm run bench`: the seed workloads the way a course notebook writes them, timed like ours
(warm-up, repeats, median of per-call wall times from a monotonic clock). Prints a JSON object of medians in ms,
keyed by workload and size. --scale F (0 < F <= 1) scales the sizes as `gpu-lab bench --device cpu --scale F` does
(main/labs/bench-plan.ts: every size times F, rounded, at least 1), so that the keys still match its rows.

    PYTHONPATH=python python3 -m gpu_lab_peers.tools.numpy_cpu [--scale F]"""

import argparse
import json
import time

from ..device_lock import device_lock
from . import scale_arg


def median_ms(np, fn, repeats, warmup=1):
    for _ in range(warmup):
        fn()
    samples = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - t0) * 1e3)
    return float(np.median(samples))


def measure(scale=1.0):
    import numpy as np

    size = lambda n: max(1, round(n * scale))  # noqa: E731
    rng = np.random.default_rng(1)
    out = {}
    for n, repeats in ((1000, 10), (2000, 5), (4000, 3)):
        n = size(n)
        a = rng.random((n, n), dtype=np.float32)
        b = rng.random((n, n), dtype=np.float32)
        out[f"gemm-fp32-{n}"] = median_ms(np, lambda: a @ b, repeats)
    n = size(2000)
    a = rng.random((n, n))
    b = rng.random((n, n))
    out[f"gemm-fp64-{n}"] = median_ms(np, lambda: a @ b, 5)

    m = size(5_000_000)
    x = rng.random(m)
    y = rng.random(m)
    out[f"vector-function-{m}"] = median_ms(np, lambda: 3.5 * x**2 + 2.8 * y + 10.0, 20, warmup=2)
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python3 -m gpu_lab_peers.tools.numpy_cpu", description=__doc__.split("\n\n")[0])
    parser.add_argument("--scale", type=scale_arg, default=1.0, metavar="F", help="scale the sizes as gpu-lab bench --scale does")
    args = parser.parse_args(argv)
    # One run at a time per device per machine, as GPU Lab's own runs.
    with device_lock(["cpu"], "numpy_cpu"):
        out = measure(args.scale)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
