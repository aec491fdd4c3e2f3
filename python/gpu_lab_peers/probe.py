"""What this interpreter offers the labs, seed 002's questions answered for this machine: each peer library found
or not (with the reason), its version, the BLAS NumPy calls, and the CUDA devices PyTorch and CuPy see."""

import importlib
import platform
import shutil
import sys

from .library_import import import_library

LIBRARIES = ("numpy", "torch", "cupy", "numba", "transformers", "pycuda", "cuda-core")


def _numpy(module):
    info = {}
    try:
        config = module.show_config(mode="dicts")
        blas = config.get("Build Dependencies", {}).get("blas", {})
        info["blas"] = " ".join(str(blas.get(k)) for k in ("name", "version") if blas.get(k)) or None
    except Exception:  # an older NumPy prints its config instead of returning it
        info["blas"] = None
    return info


def _torch(module):
    cuda = module.cuda
    available = bool(cuda.is_available())
    count = int(cuda.device_count()) if available else 0
    return {
        "cudaAvailable": available,
        "cudaVersion": module.version.cuda,
        "devices": [cuda.get_device_name(i) for i in range(count)],
    }


def _cupy(module):
    try:
        count = int(module.cuda.runtime.getDeviceCount())
        names = []
        for i in range(count):
            props = module.cuda.runtime.getDeviceProperties(i)
            name = props.get("name", b"")
            names.append(name.decode() if isinstance(name, bytes) else str(name))
        return {"cudaAvailable": count > 0, "devices": names}
    except Exception as err:
        return {"cudaAvailable": False, "devices": [], "cudaReason": f"{type(err).__name__}: {err}"}


def _numba(module):
    try:
        cuda = importlib.import_module("numba.cuda")
        available = bool(cuda.is_available())
        names = []
        if available:
            for gpu in cuda.gpus:
                name = gpu.name
                names.append(name.decode() if isinstance(name, bytes) else str(name))
            # What the labs use of it: a @vectorize for the GPU compiled for real (numba-cuda 0.30 reads
            # numpy.row_stack, which the worker restores where NumPy 2.5 removed it: library_import.py). A named
            # function: numba-cuda writes the kernel's source after the function's name, and a lambda's "<lambda>"
            # is a SyntaxError there, as the H200 showed.
            def plus_one(v):
                return v + 1.0

            module.vectorize(["float64(float64)"], target="cuda")(plus_one)
        return {"cudaAvailable": available, "devices": names}
    except Exception as err:
        return {"cudaAvailable": False, "cudaReason": f"{type(err).__name__}: {err}"}


def _pycuda(module):
    """What a playground kernel launched through PyCUDA needs: its driver module on a GPU, and nvcc on PATH, which
    its SourceModule compiles with."""
    info = {}
    try:
        drv = importlib.import_module("pycuda.driver")
        drv.init()
        count = drv.Device.count()
        info.update({"cudaAvailable": count > 0, "devices": [drv.Device(i).name() for i in range(count)]})
        major, minor = divmod(drv.get_driver_version() // 10, 100)
        info["cudaVersion"] = f"{major}.{minor}"
    except Exception as err:
        return {"cudaAvailable": False, "cudaReason": f"{type(err).__name__}: {err}"}
    if shutil.which("nvcc") is None:
        info.update({"cudaAvailable": False, "cudaReason": "no nvcc on PATH, which SourceModule compiles with (install the CUDA toolkit)"})
    return info


def _cuda_core(module):
    """cuda.core's devices, through the driver bindings it is built on (whose version says the CUDA they were built
    for), and whether the NVRTC its Program compiles with answers."""
    try:
        bindings = importlib.import_module("cuda.bindings")
        driver = importlib.import_module("cuda.bindings.driver")
        nvrtc = importlib.import_module("cuda.bindings.nvrtc")
        driver.cuInit(0)
        err, count = driver.cuDeviceGetCount()
        if err != driver.CUresult.CUDA_SUCCESS:
            return {"cudaAvailable": False, "devices": [], "cudaReason": f"cuDeviceGetCount: {err}"}
        names = []
        for i in range(count):
            _, handle = driver.cuDeviceGet(i)
            _, raw = driver.cuDeviceGetName(64, handle)
            names.append(raw.split(b"\0")[0].decode())
        built = ".".join(str(getattr(bindings, "__version__", "?")).split(".")[:2])
        err = nvrtc.nvrtcVersion()[0]
        if err != nvrtc.nvrtcResult.NVRTC_SUCCESS:
            return {"cudaAvailable": False, "devices": names, "cudaVersion": built, "cudaReason": f"NVRTC, which Program compiles with, did not answer: {err}"}
        return {"cudaAvailable": count > 0, "devices": names, "cudaVersion": built}
    except Exception as err:
        return {"cudaAvailable": False, "cudaReason": f"{type(err).__name__}: {err}"}


def _transformers(module):
    """What the text-to-image lab builds with it: CLIP's text model from its configuration, which needs torch."""
    available = getattr(module, "is_torch_available", lambda: False)()
    return {} if available else {"detailsReason": "transformers finds no PyTorch here, and its models need it"}


DETAILS = {"numpy": _numpy, "transformers": _transformers, "torch": _torch, "cupy": _cupy, "numba": _numba, "pycuda": _pycuda, "cuda-core": _cuda_core}
# The module each library is imported as, where it is not the library's own name.
MODULES = {"cuda-core": "cuda.core"}


def probe(libraries):
    report = {"python": platform.python_version(), "executable": sys.executable, "libraries": {}}
    for name in libraries:
        if name not in LIBRARIES:
            report["libraries"][name] = {"found": False, "kind": "unknown", "reason": f"not a peer library (one of {', '.join(LIBRARIES)})"}
            continue
        try:
            module = import_library(MODULES.get(name, name))
        except ImportError as err:
            # `kind` and `error` let the engine say it in the reader's language; `reason` says it in English.
            report["libraries"][name] = {"found": False, "kind": "missing", "error": str(err), "reason": f"not installed for this interpreter ({err})"}
            continue
        except Exception as err:  # an import that crashes: a broken build, a NumPy it was not built for
            error = f"{type(err).__name__}: {err}"
            report["libraries"][name] = {"found": False, "kind": "broken", "error": error, "reason": f"the import failed: {error}"}
            continue
        entry = {"found": True, "version": str(getattr(module, "__version__", None) or getattr(module, "VERSION_TEXT", "?"))}
        try:
            entry.update(DETAILS[name](module))
        except Exception as err:
            entry["detailsReason"] = f"{type(err).__name__}: {err}"
        report["libraries"][name] = entry
    return report
