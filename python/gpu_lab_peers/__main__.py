"""The worker: reads requests from stdin, answers on stdout, one JSON line each (protocol.py), and exits when stdin
closes, so that it dies with the compute host that started it however that one ends."""

import importlib
import json
import os
import platform
import sys
import time
import traceback

from .kernel_launch import KernelLaunch
from .library_import import RESTORED, import_library
from .protocol import ProtocolError, parse_request
from .probe import probe
from .labs import elementwise, matmul, text_to_image, transfer, vector_function
from .sampled import Sampled

# The engine's op (the request's `op`) → its workloads, each named by its series' code.
LABS = {
    "vector-function": vector_function.WORKLOADS,
    "gemm": matmul.WORKLOADS,
    "copy": transfer.WORKLOADS,
    "text-to-image": text_to_image.WORKLOADS,
    **{op: elementwise.workloads(op) for op in elementwise.OPS},
}
# How each of the engine's dtypes is read and written by NumPy: bfloat16 as its raw bits.
NUMPY_DTYPES = {"fp64": "float64", "fp32": "float32", "fp16": "float16", "bf16": "uint16", "int8": "int8"}
# The arrays read from the engine's input files, by path, with what the file was when read: the peer series after
# one that took the same inputs find them here instead of reading a gigabyte again (the engine keeps the files for
# them, and names in `release` those whose arrays stay).
INPUTS = {}


def read_input(np, spec):
    """The array in the file `spec` names, and whether it was read before: the one read before where the same file
    (its inode, size and time) holds the same type and length, else read now."""
    st = os.stat(spec["path"])
    signature = (st.st_ino, st.st_size, st.st_mtime_ns, spec["dtype"], spec["length"])
    hit = INPUTS.get(spec["path"])
    if hit is not None and hit[0] == signature:
        return hit[1], True
    array = np.fromfile(spec["path"], dtype=NUMPY_DTYPES[spec["dtype"]], count=spec["length"])
    INPUTS[spec["path"]] = (signature, array)
    return array, False


class Prepared(Sampled):
    """One workload on its inputs: the arrays read from the engine's files, the call the samples time, and its clock,
    in the engine's words: "host" (perf_counter around the call, and on a GPU the GPU synchronised after it, as a
    program that waits for its result sees it), "host-nosync" (perf_counter stopped when the call returns: on a GPU,
    when the launch does), "time-time" ("host" read with time.time(), as the course's notebooks write it) or
    "events" (CUDA events around the call, the device's time). The workload names its own clock; the engine may ask
    for another one.
    Before every timed call the GPU is synchronised outside the clock, so that no sample pays for the one before.
    Its rounds of samples are Sampled's."""

    def __init__(self, request):
        workloads = LABS.get(request["op"])
        if workloads is None or request["code"] not in workloads:
            raise ProtocolError("INVALID_ARGUMENT", f"no workload {request['op']}/{request['code']}")
        library, where, setup = workloads[request["code"]]
        device = request["device"]
        if (where == "cpu") != (device == "cpu"):
            raise ProtocolError("UNSUPPORTED_OPERATION", f"{request['code']} runs on {'the CPU' if where == 'cpu' else 'a CUDA device'}, not {device}")
        try:
            lib = import_library(library, gpu=where == "cuda")
            np = importlib.import_module("numpy")
        except ImportError as err:
            raise ProtocolError("LIBRARY_UNAVAILABLE", f"{library} is not installed for {sys.executable}: {err}") from None
        self.np = np
        self.lib = lib
        self.gpu = where == "cuda"
        if self.gpu:
            # The run's GPU as the current one: synchronise and the events act on the current device's stream.
            index = int(device.split(":")[1])
            if library == "torch":
                lib.cuda.set_device(index)
            elif library == "cupy":
                lib.cuda.Device(index).use()
            else:
                lib.cuda.select_device(index)
        self.library = f"{library} {getattr(lib, '__version__', '?')}"
        # What the worker put back into NumPy for this library (library_import.py): said beside its figures.
        self.restored = list(RESTORED) if library == "numba" else []
        read = [read_input(np, s) for s in request["inputs"]]
        inputs = [array for array, _ in read]
        self.reused = sum(1 for _, again in read if again)
        # The arrays' bytes, the output's counted as the inputs' widest: how much a release may hand back.
        self.nbytes = sum(a.nbytes for a in inputs) + request["output"]["length"] * max((a.itemsize for a in inputs), default=8)
        for spec, array in zip(request["inputs"], inputs):
            if array.size != spec["length"]:
                raise ProtocolError("INVALID_ARGUMENT", f"{spec['path']} holds {array.size} elements, not {spec['length']}")
        self.output = request["output"]
        made = setup(lib, device, *inputs, **request["params"])
        # A workload is its (call, fetch, clock), or an object with them that may also give a float64 reference of its
        # output, the memory it used and a release of its own (text_to_image.Workload).
        self.workload = None if isinstance(made, tuple) else made
        self.call, self.fetch, self.clock = made if isinstance(made, tuple) else (made.call, made.fetch, made.clock)
        if self.workload is not None:
            self.library = f"{self.library}; {made.implementation}"
            # A network's weights are no input, and what its release hands back (text_to_image.Workload.nbytes).
            self.nbytes += getattr(made, "nbytes", 0)
        if request.get("clock"):
            if not self.gpu and request["clock"] != "host":
                raise ProtocolError("INVALID_ARGUMENT", f"{request['code']} runs on the CPU: its only clock is host, not {request['clock']}")
            self.clock = request["clock"]
        self.min_ms = request.get("minSampleMs", 0.0)
        self.batch = None
        self.last = None

    def _sync(self):
        if self.library.startswith("cupy"):
            self.lib.cuda.Device().synchronize()
        else:  # torch.cuda and numba.cuda alike
            self.lib.cuda.synchronize()

    def _event(self):
        if self.library.startswith("torch"):
            return self.lib.cuda.Event(enable_timing=True)
        if self.library.startswith("numba"):
            return self.lib.cuda.event(timing=True)
        return self.lib.cuda.Event()

    def _elapsed(self, start, end):
        if self.library.startswith("torch"):
            return start.elapsed_time(end)
        if self.library.startswith("numba"):
            return self.lib.cuda.event_elapsed_time(start, end)
        return self.lib.cuda.get_elapsed_time(start, end)

    def _calls(self, count):
        for _ in range(count):
            self.last = self.call()

    def once(self, calls=1):
        """One timed sample of `calls` calls: (the clock's milliseconds a call, the host's wall milliseconds a call)."""
        if self.gpu:
            self._sync()
        if self.clock == "events":
            start, end = self._event(), self._event()
            t0 = time.perf_counter()
            start.record()
            self._calls(calls)
            end.record()
            end.synchronize()
            return self._elapsed(start, end) / calls, (time.perf_counter() - t0) * 1e3 / calls
        read = time.time if self.clock == "time-time" else time.perf_counter
        t0 = read()
        self._calls(calls)
        if self.gpu and self.clock != "host-nosync":
            self._sync()
        ms = (read() - t0) * 1e3 / calls
        return ms, ms

    def memory(self):
        return self.workload.memory() if self.workload is not None else None

    def write_reference(self, output):
        """The workload's own float64 reference of part of its output, and where in the output that part starts."""
        if self.workload is None:
            raise ProtocolError("UNSUPPORTED_OPERATION", "this workload is checked against the engine's own reference")
        values = self.np.ascontiguousarray(self.workload.reference(), dtype="float64").reshape(-1)
        if values.size != output["length"]:
            raise ProtocolError("PEER_FAILED", f"the reference has {values.size} elements, not {output['length']}")
        values.tofile(output["path"])
        return {"offset": self.workload.reference_offset()}

    def release(self):
        if self.workload is not None:
            self.workload.release()

    def write_output(self, indices=None):
        """The last call's output into the output file: whole, or only the elements at `indices` (the engine's check
        reads a sample of a large output, and a gigabyte written and read back for 4096 elements cost seconds)."""
        if self.last is None:
            self.once()
        np = self.np
        dtype = NUMPY_DTYPES[self.output["dtype"]]
        if indices is not None:
            picked = self._picked(np.asarray(indices, dtype=np.int64))
            if picked is not None:
                np.ascontiguousarray(picked, dtype=dtype).reshape(-1).tofile(self.output["path"])
                return
        result = np.ascontiguousarray(self.fetch(self.last), dtype=dtype).reshape(-1)
        if result.size != self.output["length"]:
            raise ProtocolError("PEER_FAILED", f"the workload returned {result.size} elements, not {self.output['length']}")
        (result if indices is None else result[np.asarray(indices, dtype=np.int64)]).tofile(self.output["path"])

    def _picked(self, idx):
        """The elements at `idx`, taken where the output lives (on the GPU, before the copy back) when its library
        can index it so; None where it cannot, and the whole output is fetched instead."""
        try:
            flat = self.last.reshape(-1)
            if flat.shape[0] != self.output["length"]:
                return None
            if self.library.startswith("torch"):
                return self.fetch(flat[self.lib.from_numpy(idx).to(flat.device)])
            if self.library.startswith("cupy"):
                return self.fetch(flat[self.lib.asarray(idx)])
            if isinstance(flat, self.np.ndarray):
                return self.fetch(flat[idx])
        except (AttributeError, TypeError, IndexError, RuntimeError, ValueError):
            return None
        return None


# Below this many bytes of arrays a point's release skips the collector and the pools: what they would hand back is
# no matter to the engine's next point.
RELEASE_BYTES = 64 << 20


def release_memory(nbytes):
    """Hands back what the libraries keep cached for the arrays just let go (PyTorch's and CuPy's memory pools hold
    freed GPU memory for reuse), so that the engine's next point finds the GPU as free as its check assumes.

    The collection that frees arrays held in reference cycles looks only at what was made since the last release:
    what outlived a release (the libraries' modules and objects, the kept inputs) is frozen out of the collector's
    generations. A full collection walks every object the libraries made, hundreds of thousands with PyTorch, Numba
    and CuPy loaded: on the GPU machine a release after large arrays took 0.12 to 0.19 s, and the releases 8.2 s of
    the seven labs. An object frozen and later left in a cycle would stay; the one kind that outlives releases and
    then goes, a network's weights (text_to_image.release_models), is unfrozen first."""
    import gc

    if nbytes < RELEASE_BYTES:
        return
    gc.collect()
    gc.freeze()
    torch = sys.modules.get("torch")
    if torch is not None and torch.cuda.is_initialized():
        torch.cuda.empty_cache()
    cupy = sys.modules.get("cupy")
    if cupy is not None:
        cupy.get_default_memory_pool().free_all_blocks()
        cupy.get_default_pinned_memory_pool().free_all_blocks()


def answer(out, rid, body=None, error=None):
    line = {"id": rid, "ok": error is None}
    if error is None:
        line.update(body or {})
    else:
        line["error"] = error
    out.write(json.dumps(line, allow_nan=False) + "\n")
    out.flush()


def _release(state):
    """Lets go of what is prepared, and gives it back (its `nbytes` say what a release may hand back): a kernel's
    device buffers and its context go at once, a network's weights with its own release."""
    prepared = state.pop("prepared", None)
    if prepared is not None and hasattr(prepared, "release"):
        prepared.release()
    return prepared


def handle(request, state):
    call = request["call"]
    if call == "probe":
        return probe(request["libraries"])
    if call == "prepare":
        _release(state)
        prepared = Prepared(request)
        state["prepared"] = prepared
        return {"library": prepared.library, "reusedInputs": prepared.reused, **({"restored": prepared.restored} if prepared.restored else {})}
    if call == "prepare-kernel":
        _release(state)
        np = importlib.import_module("numpy")
        launch = KernelLaunch(request, np)
        state["prepared"] = launch
        return {"library": launch.library, "launcher": launch.launcher.library, "compileMs": launch.launcher.compile_ms, "firstMs": launch.first_ms}
    prepared = state.get("prepared")
    if call == "release":
        released = _release(state)
        keep = set(request.get("keep") or [])
        for path in [p for p in INPUTS if p not in keep]:
            del INPUTS[path]
        release_memory(getattr(released, "nbytes", 0))
        return {}
    if prepared is None:
        raise ProtocolError("INVALID_ARGUMENT", f"`{call}` before `prepare`")
    if call == "sample":
        samples, wall, untimed = prepared.sample(request["warmup"], request["count"])
        memory = prepared.memory() if hasattr(prepared, "memory") else None
        return {"samplesMs": samples, "wallMs": wall, "clock": prepared.clock, "executionsPerSample": prepared.batch, "untimedCalls": untimed, **({"memoryBytes": memory} if memory is not None else {})}
    if call == "reference":
        return prepared.write_reference(request["output"])
    prepared.write_output(request.get("indices"))
    return {}


def _request_id(line):
    """The id of a request refused while it was being read, where it has one to answer to; else None."""
    try:
        request = json.loads(line)
    except ValueError:
        return None
    rid = request.get("id") if isinstance(request, dict) else None
    return rid if isinstance(rid, int) and not isinstance(rid, bool) else None


def main():
    out = sys.stdout
    # Whatever a library prints goes to stderr, never into the protocol's stream.
    sys.stdout = sys.stderr
    out.write(json.dumps({"ready": True, "python": platform.python_version(), "pid": os.getpid()}) + "\n")
    out.flush()
    state = {}
    for line in sys.stdin:
        rid = None
        try:
            request = parse_request(line)
            rid = request["id"]
            answer(out, rid, handle(request, state))
        except ProtocolError as err:
            answer(out, rid if rid is not None else _request_id(line), error={"code": err.code, "message": str(err)})
        except MemoryError:
            answer(out, rid, error={"code": "OUT_OF_HOST_MEMORY", "message": "the workload ran out of memory"})
        except Exception as err:  # a workload that raises: reported, the worker goes on
            trace = traceback.format_exc(limit=3).strip().splitlines()[-1]
            answer(out, rid, error={"code": "PEER_FAILED", "message": f"{type(err).__name__}: {err} ({trace})"})


if __name__ == "__main__":
    main()
