"""z = a·x² + b·y + c over float64 vectors, as seed 001's notebook writes it: NumPy with its temporaries, Numba's
compiled loop on one core and on all of them, CuPy on the GPU (the expression as written, fused, and with the copies
inside the timing) and Numba's `@vectorize(target='cuda')` on the GPU's arrays and on the host's. The engine times the
last two with each of the notebook's three clocks (events around one call, a synchronise read with time.time(), and
events around a loop of calls).

Each workload takes the library, the device and the engine's inputs, and returns what the worker times (one call
of the notebook's code), how its result becomes a NumPy array for the engine to check, and the clock that times it."""


def numpy_notebook(np, device, x, y, a, b, c):
    """NumPy as the notebook writes it: every operator makes a temporary array of n elements (x**2, a*…, b*y, the
    sums), so the expression reads and writes memory several times where one loop would do it once."""

    def call():
        return a * x**2 + b * y + c

    return call, lambda z: z, "host"


def numba_njit(numba, device, x, y, a, b, c):
    """The loop compiled by Numba (`@njit`): one pass, one core. The first call compiles it; the warm-up pays that."""
    import numpy as np

    @numba.njit
    def f(x, y, a, b, c):
        z = np.empty_like(x)
        for i in range(x.size):
            z[i] = a * x[i] ** 2 + b * y[i] + c
        return z

    return lambda: f(x, y, a, b, c), lambda z: z, "host"


def numba_parallel(numba, device, x, y, a, b, c):
    """The same loop over every core (`@njit(parallel=True)` with `prange`)."""
    import numpy as np

    @numba.njit(parallel=True)
    def f(x, y, a, b, c):
        z = np.empty_like(x)
        for i in numba.prange(x.size):
            z[i] = a * x[i] ** 2 + b * y[i] + c
        return z

    return lambda: f(x, y, a, b, c), lambda z: z, "host"


def cupy_notebook(cp, device, x, y, a, b, c):
    """CuPy on arrays already on the GPU, the expression as written: a kernel per operator, temporaries between."""
    with cp.cuda.Device(int(device.split(":")[1])):
        X, Y = cp.asarray(x), cp.asarray(y)

    def call():
        return a * X**2 + b * Y + c

    return call, cp.asnumpy, "events"


def cupy_fused(cp, device, x, y, a, b, c):
    """The same expression fused into one kernel by `cupy.fuse`: one pass over memory."""
    with cp.cuda.Device(int(device.split(":")[1])):
        X, Y = cp.asarray(x), cp.asarray(y)
    # A named function: CuPy names the kernel after it (a lambda's "<lambda>" does not compile).
    @cp.fuse()
    def polynomial(x, y, a, b, c):
        return a * x * x + b * y + c

    def call():
        return polynomial(X, Y, a, b, c)

    return call, cp.asnumpy, "events"


def cupy_copies(cp, device, x, y, a, b, c):
    """CuPy called on the host's arrays: copied over, computed, and copied back, all inside the timing."""

    def call():
        with cp.cuda.Device(int(device.split(":")[1])):
            return cp.asnumpy(a * cp.asarray(x) ** 2 + b * cp.asarray(y) + c)

    return call, lambda z: z, "host"


def _cuda_ufunc(numba, device):
    """The notebook's `@vectorize(target='cuda')` ufunc, compiled for the run's GPU."""
    numba.cuda.select_device(int(device.split(":")[1]))

    @numba.vectorize(["float64(float64, float64, float64, float64, float64)"], target="cuda")
    def f(x, y, a, b, c):
        return a * x * x + b * y + c

    return f


def numba_cuda_vectorize(numba, device, x, y, a, b, c):
    """Numba's `@vectorize(target='cuda')` on arrays already on the GPU: the notebook's "sin copia" case (it copies
    them over beforehand, outside the timing)."""
    f = _cuda_ufunc(numba, device)
    X, Y = numba.cuda.to_device(x), numba.cuda.to_device(y)

    def call():
        return f(X, Y, a, b, c)

    return call, lambda z: z.copy_to_host(), "events"


def numba_cuda_copies(numba, device, x, y, a, b, c):
    """The same ufunc called on the host's arrays: Numba copies x and y over and z back by itself, inside the timing
    (the notebook's "con copia automática" case)."""
    f = _cuda_ufunc(numba, device)

    def call():
        return f(x, y, a, b, c)

    return call, lambda z: z, "events"


WORKLOADS = {
    # code: (library, where it runs, the workload)
    "numpy-notebook": ("numpy", "cpu", numpy_notebook),
    "numba-njit": ("numba", "cpu", numba_njit),
    "numba-parallel": ("numba", "cpu", numba_parallel),
    "cupy-notebook": ("cupy", "cuda", cupy_notebook),
    "cupy-fused": ("cupy", "cuda", cupy_fused),
    "cupy-copies": ("cupy", "cuda", cupy_copies),
    "numba-cuda-vectorize": ("numba", "cuda", numba_cuda_vectorize),
    "numba-cuda-copies": ("numba", "cuda", numba_cuda_copies),
}
