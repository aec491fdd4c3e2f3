"""The worker's side of the protocol, checked as strictly as the engine checks it (main/host/peer-protocol.ts).

One JSON object a line each way. A request: {"id": N, "op": ...}. An answer: {"id": N, "ok": true, ...} or
{"id": N, "ok": false, "error": {"code": ..., "message": ...}}. The first line the worker writes, before any
request, is {"ready": true, "python": "3.11.7", "pid": N}. A line that is not a request gets an error answer with
id null; the worker never dies of a bad line, and exits when its stdin closes."""

MAX_LINE = 1 << 20
OPS = ("probe", "prepare", "sample", "output", "release")
MAX_INDICES = 8192
# The arrays' element types as the engine stores them; bfloat16 crosses as its raw 16 bits (NumPy has no bfloat16).
DTYPES = ("float64", "float32", "float16", "bfloat16", "int8")
# The clocks a workload can be timed with (__main__.Prepared.once says what each one measures).
TIMERS = ("host", "host-sync", "events", "time-time")


class ProtocolError(Exception):
    def __init__(self, code, message):
        super().__init__(message)
        self.code = code


def _field(request, name, kind, required=True):
    if name not in request:
        if required:
            raise ProtocolError("INVALID_ARGUMENT", f"`{name}` is missing")
        return None
    value = request[name]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    ok = isinstance(value, kinds) and not (int in kinds and isinstance(value, bool))
    if not ok:
        wanted = " or ".join(k.__name__ for k in kinds)
        raise ProtocolError("INVALID_ARGUMENT", f"`{name}` must be {wanted}, not {type(value).__name__}")
    return value


def _array(spec, name):
    if not isinstance(spec, dict):
        raise ProtocolError("INVALID_ARGUMENT", f"`{name}` must be an object")
    path = _field(spec, "path", str)
    dtype = _field(spec, "dtype", str)
    length = _field(spec, "length", int)
    if dtype not in DTYPES:
        raise ProtocolError("INVALID_ARGUMENT", f"`{name}.dtype` must be one of {', '.join(DTYPES)}, not {dtype!r}")
    if length < 1 or length > (1 << 31):
        raise ProtocolError("INVALID_ARGUMENT", f"`{name}.length` must be from 1 to 2^31, not {length}")
    return {"path": path, "dtype": dtype, "length": length}


def parse_request(line):
    """A checked request, or ProtocolError naming what is wrong (with the id where one could be read)."""
    import json

    if len(line) > MAX_LINE:
        raise ProtocolError("INVALID_ARGUMENT", f"a request line must be at most {MAX_LINE} bytes")
    try:
        request = json.loads(line)
    except ValueError as err:
        raise ProtocolError("INVALID_ARGUMENT", f"a request must be one JSON object a line: {err}") from None
    if not isinstance(request, dict):
        raise ProtocolError("INVALID_ARGUMENT", "a request must be a JSON object")
    rid = _field(request, "id", int)
    op = _field(request, "op", str)
    if op not in OPS:
        raise ProtocolError("INVALID_ARGUMENT", f"`op` must be one of {', '.join(OPS)}, not {op!r}")
    checked = {"id": rid, "op": op}
    if op == "probe":
        libraries = _field(request, "libraries", list)
        if not all(isinstance(x, str) for x in libraries):
            raise ProtocolError("INVALID_ARGUMENT", "`libraries` must be a list of names")
        checked["libraries"] = libraries
    elif op == "prepare":
        checked["workload"] = _field(request, "workload", str)
        checked["code"] = _field(request, "code", str)
        checked["device"] = _field(request, "device", str)
        inputs = _field(request, "inputs", list)
        checked["inputs"] = [_array(spec, f"inputs[{i}]") for i, spec in enumerate(inputs)]
        checked["output"] = _array(_field(request, "output", dict), "output")
        params = _field(request, "params", dict)
        for key, value in params.items():
            if not isinstance(value, (int, float)) or isinstance(value, bool):
                raise ProtocolError("INVALID_ARGUMENT", f"`params.{key}` must be a number")
        checked["params"] = params
        timer = _field(request, "timer", str, required=False)
        if timer is not None and timer not in TIMERS:
            raise ProtocolError("INVALID_ARGUMENT", f"`timer` must be one of {', '.join(TIMERS)}, not {timer!r}")
        checked["timer"] = timer
        min_ms = _field(request, "minSampleMs", (int, float), required=False)
        if min_ms is not None and (isinstance(min_ms, bool) or not 0 <= min_ms <= 1000):
            raise ProtocolError("INVALID_ARGUMENT", f"`minSampleMs` must be a number from 0 to 1000, not {min_ms!r}")
        checked["minSampleMs"] = float(min_ms or 0)
    elif op == "output":
        # The elements the engine's check reads, where it reads a sample: only those are written back.
        indices = _field(request, "indices", list, required=False)
        if indices is not None and (len(indices) > MAX_INDICES or not all(isinstance(i, int) and not isinstance(i, bool) and 0 <= i < 2**31 for i in indices)):
            raise ProtocolError("INVALID_ARGUMENT", f"`indices` must be at most {MAX_INDICES} integers from 0 to 2^31")
        checked["indices"] = indices
    elif op == "release":
        # The input files whose arrays stay for the peer points after (the engine's host/peer-files.ts); absent, none.
        keep = _field(request, "keep", list, required=False)
        if keep is not None and (len(keep) > 1000 or not all(isinstance(k, str) and len(k) <= 4096 for k in keep)):
            raise ProtocolError("INVALID_ARGUMENT", "`keep` must be at most 1000 file paths")
        checked["keep"] = keep or []
    elif op == "sample":
        checked["warmup"] = _field(request, "warmup", int)
        checked["count"] = _field(request, "count", int)
        if not (0 <= checked["warmup"] <= 100_000 and 1 <= checked["count"] <= 100_000):
            raise ProtocolError("INVALID_ARGUMENT", "`warmup` must be from 0 and `count` from 1, both at most 100000")
    return checked
