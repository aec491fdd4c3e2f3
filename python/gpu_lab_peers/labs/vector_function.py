"""z = a·x² + b·y + c over float64 vectors, as seed 001's notebook writes it.

Each workload takes the library, the device and the engine's inputs, and returns what the worker times (one call
of the notebook's code), how its result becomes a NumPy array for the engine to check, and the clock that times it."""


def numpy_notebook(np, device, x, y, a, b, c):
    """NumPy as the notebook writes it: every operator makes a temporary array of n elements (x**2, a*…, b*y, the
    sums), so the expression reads and writes memory several times where one loop would do it once."""

    def call():
        return a * x**2 + b * y + c

    return call, lambda z: z, "host"


WORKLOADS = {
    # code: (library, where it runs, the workload)
    "numpy-notebook": ("numpy", "cpu", numpy_notebook),
}
