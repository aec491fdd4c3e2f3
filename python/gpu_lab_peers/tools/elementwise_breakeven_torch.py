"""PyTorch peer of `gpu-lab run elementwise-breakeven --device cuda:0`: the same measurements written the way the
course's notebook writes them (seeds/003): add, mul and exp over 10^2 ... 10^8 float32 on the CPU (every thread),
on the GPU with the copies inside the timed region, and resident on the GPU (CUDA events). Warm-up 2, then up to
20 samples, fewer where one sample takes long (at least 3, about a second per point), as the lab does. Prints the
median times, the size where the GPU becomes 2x faster (log-log interpolation) and the whole script's wall time
(torch's import included). Run on the GPU machine:

    PYTHONPATH=python python3 -m gpu_lab_peers.tools.elementwise_breakeven_torch"""

import json
import math
import sys
import time

from ..device_lock import device_lock

# Imported by measure(), with the devices held, so that importing this module needs no torch and measures nothing.
torch = None

SIZES = [10**e for e in range(2, 9)]
TARGET = 2.0


def median(xs):
    s = sorted(xs)
    n = len(s)
    return s[n // 2] if n % 2 else 0.5 * (s[n // 2 - 1] + s[n // 2])


def repeats_for(sample_s):
    return max(3, min(20, int(1.0 / max(sample_s, 1e-9))))


def time_host(fn, sync):
    for _ in range(2):
        fn()
        sync()
    t0 = time.perf_counter()
    fn()
    sync()
    first = time.perf_counter() - t0
    samples = []
    for _ in range(repeats_for(first)):
        t0 = time.perf_counter()
        fn()
        sync()
        samples.append((time.perf_counter() - t0) * 1e3)
    return median(samples)


def time_events(fn):
    for _ in range(2):
        fn()
    torch.cuda.synchronize()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    fn()
    end.record()
    end.synchronize()
    first = start.elapsed_time(end) / 1e3
    samples = []
    for _ in range(repeats_for(first)):
        start.record()
        fn()
        end.record()
        end.synchronize()
        samples.append(start.elapsed_time(end))
    return median(samples)


def op_fn(op, a, b):
    if op == "add":
        return lambda: torch.add(a, b)
    if op == "mul":
        return lambda: torch.mul(a, b)
    return lambda: torch.exp(a)


def break_even(sizes, speedups):
    prev = None
    for n, s in zip(sizes, speedups):
        if s >= TARGET:
            if prev is None:
                return n
            n0, s0 = prev
            t = (math.log(TARGET) - math.log(s0)) / (math.log(s) - math.log(s0))
            return math.exp(math.log(n0) + t * (math.log(n) - math.log(n0)))
        prev = (n, s)
    return None


def measure(t_start):
    global torch
    import torch

    dev = torch.device("cuda:0")
    nothing = lambda: None  # noqa: E731
    results = {}
    for op in ("add", "mul", "exp"):
        rows = []
        for n in SIZES:
            x = torch.rand(n, dtype=torch.float32)
            y = torch.rand(n, dtype=torch.float32)
            cpu = time_host(op_fn(op, x, y), nothing)

            def with_copies():
                xg = x.to(dev)
                yg = y.to(dev)
                return op_fn(op, xg, yg)().cpu()

            transfers = time_host(with_copies, torch.cuda.synchronize)
            xg, yg = x.to(dev), y.to(dev)
            resident = time_events(op_fn(op, xg, yg))
            rows.append({"n": n, "cpuMs": cpu, "gpuTransfersMs": transfers, "gpuResidentMs": resident})
        results[op] = {
            "rows": rows,
            "breakEvenTransfers": break_even(SIZES, [r["cpuMs"] / r["gpuTransfersMs"] for r in rows]),
            "breakEvenResident": break_even(SIZES, [r["cpuMs"] / r["gpuResidentMs"] for r in rows]),
        }
    results["wallSeconds"] = time.perf_counter() - t_start
    results["torch"] = torch.__version__
    results["cpuThreads"] = torch.get_num_threads()
    json.dump(results, sys.stdout, indent=1)
    print()


def main():
    # One run at a time per device per machine, as GPU Lab's own runs: torch is imported with the devices held.
    with device_lock(["cpu", "cuda:0"], "elementwise_breakeven_torch"):
        measure(time.perf_counter())


if __name__ == "__main__":
    main()
