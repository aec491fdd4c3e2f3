"""add, mul and exp over float32 vectors with PyTorch, as seed 003's break-even exercise writes them: on the CPU
(PyTorch's own threads), on the GPU with the tensors copied over with `.to('cuda')` and the result back with
`.cpu()` inside the timing, and on tensors already on the GPU. The break-even is about the time a program waits
for, so the GPU series are timed on the host's clock after a synchronise, as the lab times its own.

Beside them, for the CPU loops' benchmark (scripts/bench-cpu-loops.mjs): NumPy's operator (one thread) and the loop
compiled by Numba on every core (`@njit(parallel=True)` with `prange`), as seed 001 writes its loops."""

OPS = ("add", "mul", "exp")


def _apply(torch, op, tensors):
    if op == "exp":
        return torch.exp(tensors[0])
    x, y = tensors
    return x + y if op == "add" else x * y


def _cpu(op):
    def setup(torch, device, *arrays):
        tensors = [torch.from_numpy(a) for a in arrays]
        return (lambda: _apply(torch, op, tensors)), (lambda t: t.numpy()), "host"

    return setup


def _transfers(op):
    def setup(torch, device, *arrays):
        gpu = torch.device(device)
        tensors = [torch.from_numpy(a) for a in arrays]
        return (lambda: _apply(torch, op, [t.to(gpu) for t in tensors]).cpu()), (lambda t: t.numpy()), "host"

    return setup


def _resident(op):
    def setup(torch, device, *arrays):
        gpu = torch.device(device)
        tensors = [torch.from_numpy(a).to(gpu) for a in arrays]
        return (lambda: _apply(torch, op, tensors)), (lambda t: t.cpu().numpy()), "host"

    return setup


def _numpy(op):
    def setup(np, device, *arrays):
        if op == "exp":
            (x,) = arrays
            return (lambda: np.exp(x)), (lambda z: z), "host"
        x, y = arrays
        return (lambda: x + y if op == "add" else x * y), (lambda z: z), "host"

    return setup


def _numba_parallel(op):
    def setup(numba, device, *arrays):
        import math

        import numpy as np

        if op == "exp":

            @numba.njit(parallel=True)
            def f(x):
                z = np.empty_like(x)
                for i in numba.prange(x.size):
                    z[i] = math.exp(x[i])
                return z

        elif op == "add":

            @numba.njit(parallel=True)
            def f(x, y):
                z = np.empty_like(x)
                for i in numba.prange(x.size):
                    z[i] = x[i] + y[i]
                return z

        else:

            @numba.njit(parallel=True)
            def f(x, y):
                z = np.empty_like(x)
                for i in numba.prange(x.size):
                    z[i] = x[i] * y[i]
                return z

        return (lambda: f(*arrays)), (lambda z: z), "host"

    return setup


def workloads(op):
    return {
        "numpy-cpu": ("numpy", "cpu", _numpy(op)),
        "numba-parallel": ("numba", "cpu", _numba_parallel(op)),
        "torch-cpu": ("torch", "cpu", _cpu(op)),
        "torch-transfers": ("torch", "cuda", _transfers(op)),
        "torch-resident": ("torch", "cuda", _resident(op)),
    }
