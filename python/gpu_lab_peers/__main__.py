"""The worker: reads requests from stdin, answers on stdout, one JSON line each (protocol.py), and exits when stdin
closes, so that it dies with the compute host that started it however that one ends."""

import importlib
import json
import os
import platform
import sys
import time
import traceback

from .protocol import ProtocolError, parse_request
from .probe import probe
from .labs import matmul, vector_function

LABS = {"vector-function": vector_function.WORKLOADS, "gemm": matmul.WORKLOADS}


class Prepared:
    """One workload on its inputs: the arrays read from the engine's files, the call the samples time, and its clock:
    "host" (perf_counter around the call), "host-sync" (the GPU synchronised before and after, as a program that
    waits for its result sees it) or "events" (CUDA events around the call, the device's time)."""

    def __init__(self, request):
        workloads = LABS.get(request["workload"])
        if workloads is None or request["code"] not in workloads:
            raise ProtocolError("INVALID_ARGUMENT", f"no workload {request['workload']}/{request['code']}")
        library, where, setup = workloads[request["code"]]
        device = request["device"]
        if (where == "cpu") != (device == "cpu"):
            raise ProtocolError("UNSUPPORTED_OPERATION", f"{request['code']} runs on {'the CPU' if where == 'cpu' else 'a CUDA device'}, not {device}")
        try:
            lib = importlib.import_module(library)
            np = importlib.import_module("numpy")
        except ImportError as err:
            raise ProtocolError("LIBRARY_UNAVAILABLE", f"{library} is not installed for {sys.executable}: {err}") from None
        self.np = np
        self.lib = lib
        self.library = f"{library} {getattr(lib, '__version__', '?')}"
        inputs = [np.fromfile(s["path"], dtype=s["dtype"], count=s["length"]) for s in request["inputs"]]
        for spec, array in zip(request["inputs"], inputs):
            if array.size != spec["length"]:
                raise ProtocolError("INVALID_ARGUMENT", f"{spec['path']} holds {array.size} elements, not {spec['length']}")
        self.output = request["output"]
        self.call, self.fetch, self.timer = setup(lib, device, *inputs, **request["params"])
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

    def once(self):
        """One timed call: (the clock's milliseconds, the host's wall milliseconds)."""
        if self.timer == "host":
            t0 = time.perf_counter()
            self.last = self.call()
            ms = (time.perf_counter() - t0) * 1e3
            return ms, ms
        self._sync()
        if self.timer == "events":
            start, end = self._event(), self._event()
            t0 = time.perf_counter()
            start.record()
            self.last = self.call()
            end.record()
            end.synchronize()
            return self._elapsed(start, end), (time.perf_counter() - t0) * 1e3
        t0 = time.perf_counter()
        self.last = self.call()
        self._sync()
        ms = (time.perf_counter() - t0) * 1e3
        return ms, ms

    def sample(self, warmup, count):
        for _ in range(warmup):
            self.once()
        samples, wall = [], []
        for _ in range(count):
            ms, host = self.once()
            samples.append(ms)
            wall.append(host)
        return samples, wall

    def write_output(self):
        if self.last is None:
            self.once()
        result = self.np.ascontiguousarray(self.fetch(self.last), dtype=self.output["dtype"]).reshape(-1)
        if result.size != self.output["length"]:
            raise ProtocolError("PEER_FAILED", f"the workload returned {result.size} elements, not {self.output['length']}")
        result.tofile(self.output["path"])


def answer(out, rid, body=None, error=None):
    line = {"id": rid, "ok": error is None}
    if error is None:
        line.update(body or {})
    else:
        line["error"] = error
    out.write(json.dumps(line, allow_nan=False) + "\n")
    out.flush()


def handle(request, state):
    op = request["op"]
    if op == "probe":
        return probe(request["libraries"])
    if op == "prepare":
        state["prepared"] = Prepared(request)
        return {"library": state["prepared"].library}
    prepared = state.get("prepared")
    if op == "release":
        state.pop("prepared", None)
        return {}
    if prepared is None:
        raise ProtocolError("INVALID_ARGUMENT", f"`{op}` before `prepare`")
    if op == "sample":
        samples, wall = prepared.sample(request["warmup"], request["count"])
        return {"samplesMs": samples, "wallMs": wall, "timer": prepared.timer}
    prepared.write_output()
    return {}


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
            answer(out, rid, error={"code": err.code, "message": str(err)})
        except MemoryError:
            answer(out, rid, error={"code": "OUT_OF_HOST_MEMORY", "message": "the workload ran out of memory"})
        except Exception as err:  # a workload that raises: reported, the worker goes on
            trace = traceback.format_exc(limit=3).strip().splitlines()[-1]
            answer(out, rid, error={"code": "PEER_FAILED", "message": f"{type(err).__name__}: {err} ({trace})"})


if __name__ == "__main__":
    main()
