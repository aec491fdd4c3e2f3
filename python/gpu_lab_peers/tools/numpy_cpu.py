"""NumPy peer for `npm run bench`: the seed workloads the way a course notebook writes them, timed like ours
(warm-up, repeats, median of per-call wall times from a monotonic clock). Prints a JSON object of medians in ms."""

from device_lock import device_lock  # noqa: E402  (scripts/peers/, beside this file)

# One run at a time per device per machine, as GPU Lab's own runs: held until this script exits.
device_lock(["cpu"], "numpy_cpu.py").__enter__()
import json
import time

import numpy as np


def median_ms(fn, repeats, warmup=1):
    for _ in range(warmup):
        fn()
    samples = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - t0) * 1e3)
    return float(np.median(samples))


rng = np.random.default_rng(1)
out = {}
for n, repeats in ((1000, 10), (2000, 5), (4000, 3)):
    a = rng.random((n, n), dtype=np.float32)
    b = rng.random((n, n), dtype=np.float32)
    out[f"gemm-fp32-{n}"] = median_ms(lambda: a @ b, repeats)
a = rng.random((2000, 2000))
b = rng.random((2000, 2000))
out["gemm-fp64-2000"] = median_ms(lambda: a @ b, 5)

x = rng.random(5_000_000)
y = rng.random(5_000_000)
out["vector-function-5000000"] = median_ms(lambda: 3.5 * x**2 + 2.8 * y + 10.0, 20, warmup=2)
print(json.dumps(out))
