"""Command-line peers for GPU Lab's own benches, run by hand or by scripts/ (never by the worker, which imports
nothing from here): each takes GPU Lab's device locks (..device_lock), measures the way a course notebook writes the
workload, and prints JSON. Importing one measures nothing; with the package's folder on PYTHONPATH:

    python3 -m gpu_lab_peers.tools.numpy_cpu [--scale F]       NumPy on the CPU, beside `npm run bench`
    python3 -m gpu_lab_peers.tools.cuda_peers [--scale F]      PyTorch and CuPy, beside `gpu-lab bench --device cuda:0`
    python3 -m gpu_lab_peers.tools.elementwise_breakeven_torch  PyTorch, beside `gpu-lab run elementwise-breakeven`
"""

import argparse


def scale_arg(text):
    """--scale F, as `gpu-lab bench --scale` takes it: a number in (0, 1]."""
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not 0 < value <= 1:
        raise argparse.ArgumentTypeError(f"--scale is a number in (0, 1], not {text}")
    return value
