"""How the worker imports a peer library. Numba's CUDA target (numba-cuda 0.30) still reads `numpy.row_stack`, an
alias of `numpy.vstack` that NumPy 2.5 removed, so `import numba.cuda` fails there with "module 'numpy' has no
attribute 'row_stack'". Where NumPy lacks the alias, the worker puts it back before Numba is imported, and says so:
the engine writes it into the series' implementation, and the report's method names the series it applied to.

Only the worker does this, in its own process; nothing else in the user's interpreter is touched."""

import importlib

# What the worker restored, once per process, in the words the engine repeats (common/peer-protocol.ts).
RESTORED = []
ROW_STACK = "numpy.row_stack"


def restore_row_stack():
    """numpy.row_stack as numpy.vstack where NumPy has no such name; the list of what was restored so far."""
    try:
        import numpy
    except ImportError:  # Numba's own import then says what is missing
        return list(RESTORED)
    if not hasattr(numpy, "row_stack"):
        numpy.row_stack = numpy.vstack
        if ROW_STACK not in RESTORED:
            RESTORED.append(ROW_STACK)
    return list(RESTORED)


def import_library(name, gpu=False):
    """The library's module; for Numba, its CUDA target too where the series runs on the GPU (numba.cuda is a
    submodule that `import numba` does not load)."""
    if name == "numba":
        restore_row_stack()
    module = importlib.import_module(name)
    if name == "numba" and gpu:
        importlib.import_module("numba.cuda")
    return module
