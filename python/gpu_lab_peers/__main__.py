"""The worker: reads requests from stdin, answers on stdout, one JSON line each (protocol.py), and exits when stdin
closes, so that it dies with the compute host that started it however that one ends."""

import json
import os
import platform
import sys
import time
import traceback

from .protocol import ProtocolError, parse_request
from .probe import probe
from .labs import vector_function

LABS = {"vector-function": vector_function.WORKLOADS}


class Prepared:
    """One workload on its inputs: the arrays read from the engine's files, the call the samples time."""

    def __init__(self, request):
        workloads = LABS.get(request["workload"])
        if workloads is None or request["code"] not in workloads:
            raise ProtocolError("INVALID_ARGUMENT", f"no workload {request['workload']}/{request['code']}")
        library, kind, fn = workloads[request["code"]]
        if kind != "cpu" or request["device"] != "cpu":
            raise ProtocolError("UNSUPPORTED_OPERATION", f"{request['code']} runs on the CPU only")
        try:
            np = __import__(library)
        except ImportError as err:
            raise ProtocolError("LIBRARY_UNAVAILABLE", f"{library} is not installed for {sys.executable}: {err}") from None
        self.np = np
        self.inputs = [np.fromfile(s["path"], dtype=s["dtype"], count=s["length"]) for s in request["inputs"]]
        for spec, array in zip(request["inputs"], self.inputs):
            if array.size != spec["length"]:
                raise ProtocolError("INVALID_ARGUMENT", f"{spec['path']} holds {array.size} elements, not {spec['length']}")
        self.output = request["output"]
        self.params = request["params"]
        self.fn = fn
        self.last = None
        self.library = f"{library} {getattr(np, '__version__', '?')}"

    def call(self):
        self.last = self.fn(self.np, *self.inputs, **self.params)

    def sample(self, warmup, count):
        for _ in range(warmup):
            self.call()
        samples = []
        for _ in range(count):
            t0 = time.perf_counter()
            self.call()
            samples.append((time.perf_counter() - t0) * 1e3)
        return samples

    def write_output(self):
        if self.last is None:
            self.call()
        result = self.np.ascontiguousarray(self.last, dtype=self.output["dtype"]).reshape(-1)
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
        return {"samplesMs": prepared.sample(request["warmup"], request["count"])}
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
