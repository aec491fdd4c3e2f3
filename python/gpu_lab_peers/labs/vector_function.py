"""z = a·x² + b·y + c over float64 vectors, as seed 001's notebook writes it."""


def numpy_notebook(np, x, y, a, b, c):
    """NumPy as the notebook writes it: every operator makes a temporary array of n elements (x**2, a*…, b*y, the
    sums), so the expression reads and writes memory several times where one loop would do it once."""
    return a * x**2 + b * y + c


WORKLOADS = {
    # code: (library, device kind, function)
    "numpy-notebook": ("numpy", "cpu", numpy_notebook),
}
