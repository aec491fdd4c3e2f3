"""A playground kernel launched from Python, as Unit 10 of the course launches its kernels: through PyCUDA (the
source compiled by SourceModule, the kernel called with its arguments, timed with pycuda.driver.Event) where PyCUDA
imports, else through NVIDIA's cuda.core, its maintained successor (Program, launch, events on a stream).

The source is the one the playground's door already checked (no #include, no pragma but unroll: DESIGN §10), and
nothing of the request reaches either compiler but the source, the file's name and the kernel's name: the options
are fixed here, the same as the compute host gives NVRTC (the GPU's architecture, C++17, -lineinfo, no include
from the source's folder), no include folder is named, and PyCUDA is given an empty option list so that
PYCUDA_DEFAULT_NVCC_FLAGS is not read either. The inputs come in files, as the peers' inputs do; the output is
filled with a poison (every byte 0xFF) and launched on once before any timing, and that launch's output is the one
the engine verifies, as it verifies its own launch (main/host/kernel-run.ts)."""

import importlib
import shutil
import time

from .protocol import ProtocolError
from .sampled import Sampled

ARRAY_DTYPES = {"fp32": "float32", "fp64": "float64"}
# The engine's scalar kinds (native/kernel-playground.ts KernelArg) as NumPy scalars, which both libraries pass by
# value with the C type of the same width.
SCALAR_DTYPES = {"f32": "float32", "f64": "float64", "i32": "int32", "u64": "uint64"}
INSTALL = "install PyCUDA (pip install pycuda, with the CUDA toolkit's nvcc on PATH) or cuda.core (pip install cuda-core[cu13])"


class PyCudaLaunch:
    """PyCUDA as the course writes it. SourceModule wraps the source in extern "C" (as the notebooks rely on, so that
    get_function finds the kernel by its plain name) and compiles it with nvcc for the GPU's architecture."""

    library = "pycuda"

    def __init__(self, index, source, entry, file_name):
        drv = importlib.import_module("pycuda.driver")
        compiler = importlib.import_module("pycuda.compiler")
        pycuda = importlib.import_module("pycuda")
        if shutil.which("nvcc") is None:
            raise ProtocolError("LIBRARY_UNAVAILABLE", "PyCUDA's SourceModule compiles with nvcc, and there is no nvcc on PATH (install the CUDA toolkit)")
        drv.init()
        self.drv = drv
        self.context = drv.Device(index).retain_primary_context()
        self.context.push()
        major, minor = drv.Device(index).compute_capability()
        self.version = f"PyCUDA {getattr(pycuda, 'VERSION_TEXT', '?')}"
        started = time.perf_counter()
        try:
            module = compiler.SourceModule(source, options=[], include_dirs=[], arch=f"sm_{major}{minor}", cache_dir=False, keep=False, no_extern_c=False)
        except Exception as err:
            raise ProtocolError("PEER_FAILED", f"{file_name}: PyCUDA's SourceModule did not compile it: {err}") from None
        self.compile_ms = (time.perf_counter() - started) * 1e3
        self.function = module.get_function(entry)

    def alloc(self, nbytes):
        return self.drv.mem_alloc(nbytes)

    def upload(self, buffer, array):
        self.drv.memcpy_htod(buffer, array)

    def download(self, array, buffer):
        self.drv.memcpy_dtoh(array, buffer)

    def poison(self, buffer, nbytes):
        self.drv.memset_d8(buffer, 0xFF, nbytes)
        self.sync()

    def launch(self, args, grid, block, shared):
        self.function(*args, grid=grid, block=block, shared=shared)

    def sync(self):
        self.drv.Context.synchronize()

    def timed(self, call):
        start, end = self.drv.Event(), self.drv.Event()
        start.record()
        call()
        end.record()
        end.synchronize()
        return start.time_till(end)

    def free(self, buffer):
        buffer.free()

    def close(self):
        self.context.pop()
        self.context.detach()


def _driver_call(driver, name, *args):
    result = getattr(driver, name)(*args)
    err = result[0] if isinstance(result, tuple) else result
    if err != driver.CUresult.CUDA_SUCCESS:
        raise ProtocolError("CUDA_ERROR", f"{name} failed: {err}")


def _timing_options(core):
    """Events that record time: the option's name changed between cuda.core releases (enable_timing, then
    timing_enabled)."""
    try:
        return core.EventOptions(timing_enabled=True)
    except TypeError:
        return core.EventOptions(enable_timing=True)


def _program_options(core, file_name, arch):
    """The options the compute host gives NVRTC: the architecture, C++17, -lineinfo and --no-source-include; and no
    headers of NVRTC's own bundle where this cuda.core has the switch (1.2 and later)."""
    fixed = {"name": file_name, "arch": arch, "std": "c++17", "lineinfo": True, "no_source_include": True}
    try:
        return core.ProgramOptions(**fixed, use_bundled_headers=False)
    except TypeError:
        return core.ProgramOptions(**fixed)


class CudaCoreLaunch:
    """cuda.core: Program compiles with NVRTC (the name expression finds the kernel under its C++ name, as the compute
    host's own NVRTC run does), launch() puts it on a stream of its own, and events on that stream time it. Copies go
    through the driver (cuda.bindings), on the host's own arrays."""

    library = "cuda-core"

    def __init__(self, index, source, entry, file_name):
        core = importlib.import_module("cuda.core")
        self.driver = importlib.import_module("cuda.bindings.driver")
        self.core = core
        self.device = core.Device(index)
        self.device.set_current()
        self.stream = self.device.create_stream()
        self.timing = _timing_options(core)
        major, minor = self.device.compute_capability
        self.version = f"cuda.core {getattr(core, '__version__', '?')}"
        started = time.perf_counter()
        try:
            program = core.Program(source, "c++", options=_program_options(core, file_name, f"sm_{major}{minor}"))
            module = program.compile("cubin", name_expressions=(entry,))
        except Exception as err:
            raise ProtocolError("PEER_FAILED", f"{file_name}: cuda.core's Program did not compile it: {err}") from None
        self.compile_ms = (time.perf_counter() - started) * 1e3
        self.kernel = module.get_kernel(entry)

    def alloc(self, nbytes):
        buffer = self.device.allocate(nbytes, stream=self.stream)
        self.stream.sync()
        return buffer

    def upload(self, buffer, array):
        _driver_call(self.driver, "cuMemcpyHtoD", int(buffer.handle), array.ctypes.data, array.nbytes)
        self.device.sync()

    def download(self, array, buffer):
        self.stream.sync()
        _driver_call(self.driver, "cuMemcpyDtoH", array.ctypes.data, int(buffer.handle), array.nbytes)

    def poison(self, buffer, nbytes):
        _driver_call(self.driver, "cuMemsetD8", int(buffer.handle), 0xFF, nbytes)
        self.device.sync()

    def launch(self, args, grid, block, shared):
        config = self.core.LaunchConfig(grid=grid, block=block, shmem_size=shared)
        self.core.launch(self.stream, config, self.kernel, *args)

    def sync(self):
        self.stream.sync()

    def timed(self, call):
        start = self.stream.record(options=self.timing)
        call()
        end = self.stream.record(options=self.timing)
        end.sync()
        return end - start

    def free(self, buffer):
        buffer.close(self.stream)

    def close(self):
        self.stream.sync()


LAUNCHERS = {"pycuda": PyCudaLaunch, "cuda-core": CudaCoreLaunch}


def open_launcher(library, index, source, entry, file_name):
    """PyCUDA where it imports (or where it is named), else cuda.core; neither: LIBRARY_UNAVAILABLE saying what to
    install, with what each import said."""
    order = ["pycuda", "cuda-core"] if library == "auto" else [library]
    missing = []
    for name in order:
        try:
            return LAUNCHERS[name](index, source, entry, file_name)
        except ImportError as err:
            missing.append(f"{name}: {err}")
    raise ProtocolError("LIBRARY_UNAVAILABLE", f"neither PyCUDA nor cuda.core imports ({'; '.join(missing)}): {INSTALL}")


class KernelLaunch(Sampled):
    """One kernel on its arguments, sampled as the worker samples a workload (Sampled): CUDA events around each
    launch (or each batch of launches, where one is shorter than the minimum sample), the GPU synchronised first."""

    def __init__(self, request, np):
        self.np = np
        device = request["device"]
        if not device.startswith("cuda:"):
            raise ProtocolError("UNSUPPORTED_OPERATION", f"a kernel runs on a CUDA device, not {device}")
        self.launcher = open_launcher(request["library"], int(device.split(":")[1]), request["source"], request["entry"], request["fileName"])
        self.library = self.launcher.version
        self.gpu = True
        self.clock = "events"
        self.min_ms = request["minSampleMs"]
        self.batch = None
        self.last = None
        self.buffers = []
        self.args = []
        self.output = None
        try:
            self._arguments(request["args"])
            self.grid, self.block, self.shared = tuple(request["grid"]), tuple(request["block"]), request["sharedBytes"]
            self.launcher.poison(self.output_buffer, self.output_host.nbytes)
            self.first_ms = self.launcher.timed(self._launch)
            self.launcher.download(self.output_host, self.output_buffer)
        except Exception:
            self.release()
            raise

    def _arguments(self, specs):
        np = self.np
        for spec in specs:
            if spec["kind"] == "scalar":
                self.args.append(np.dtype(SCALAR_DTYPES[spec["type"]]).type(spec["value"]))
                continue
            dtype = ARRAY_DTYPES[spec["dtype"]]
            buffer = self.launcher.alloc(spec["length"] * np.dtype(dtype).itemsize)
            self.buffers.append(buffer)
            self.args.append(buffer)
            if spec["kind"] == "input":
                values = np.fromfile(spec["path"], dtype=dtype, count=spec["length"])
                if values.size != spec["length"]:
                    raise ProtocolError("INVALID_ARGUMENT", f"{spec['path']} holds {values.size} elements, not {spec['length']}")
                self.launcher.upload(buffer, values)
            else:
                self.output = spec
                self.output_buffer = buffer
                self.output_host = np.empty(spec["length"], dtype=dtype)
        if self.output is None:
            raise ProtocolError("INVALID_ARGUMENT", "a kernel's arguments need one output")

    def _launch(self):
        self.launcher.launch(self.args, self.grid, self.block, self.shared)

    def _calls(self, count):
        for _ in range(count):
            self._launch()
        self.last = True

    def once(self, calls=1):
        self.launcher.sync()
        t0 = time.perf_counter()
        ms = self.launcher.timed(lambda: self._calls(calls))
        return ms / calls, (time.perf_counter() - t0) * 1e3 / calls

    def write_output(self, _indices=None):
        """The output of the launch on the poisoned buffer, before any timing: whole (the engine asks for no sample of
        a kernel's output)."""
        self.output_host.tofile(self.output["path"])

    def release(self):
        for buffer in self.buffers:
            self.launcher.free(buffer)
        self.buffers = []
        self.launcher.close()
