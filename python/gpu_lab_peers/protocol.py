"""The worker's side of the protocol, checked as strictly as the engine checks it (main/common/peer-protocol.ts).

One JSON object a line each way. A request: {"id": N, "call": ...}. An answer: {"id": N, "ok": true, ...} or
{"id": N, "ok": false, "error": {"code": ..., "message": ...}}. The first line the worker writes, before any
request, is {"ready": true, "python": "3.11.7", "pid": N}. A line that is not a request gets an error answer with
id null; the worker never dies of a bad line, and exits when its stdin closes."""

MAX_LINE = 1 << 20
CALLS = ("probe", "prepare", "prepare-kernel", "sample", "output", "reference", "release")
MAX_INDICES = 8192
# The measurement vocabulary's words (main/common/measurement.ts), unchanged. The engine's ops, each a workload's `op`:
OPS = ("empty", "add", "mul", "exp", "vector-function", "gemm", "blas1", "copy", "text-to-image")
# The arrays' element types as the engine stores them; bfloat16 crosses as its raw 16 bits (NumPy has no bfloat16).
DTYPES = ("fp64", "fp32", "fp16", "bf16", "int8")
# The clocks a workload can be timed with (__main__.Prepared.once says what each one measures): the engine's, and
# what Python alone has, time.time().
CLOCKS = ("events", "host", "host-nosync", "time-time")


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


# A playground kernel's request (kernel_launch.py): these fields and no other. Whatever else a request carries is
# refused, so that no compiler option, include folder or define can ride along with the source.
KERNEL_FIELDS = ("id", "call", "library", "device", "source", "fileName", "entry", "grid", "block", "sharedBytes", "args", "minSampleMs")
KERNEL_LIBRARIES = ("auto", "pycuda", "cuda-core")
MAX_SOURCE = 100_000
MAX_SHARED = 49_152
SCALAR_TYPES = ("f32", "f64", "i32", "u64")


def _dims(request, name):
    value = _field(request, name, list)
    if len(value) != 3 or not all(isinstance(v, int) and not isinstance(v, bool) and 1 <= v < 2**31 for v in value):
        raise ProtocolError("INVALID_ARGUMENT", f"`{name}` must be 3 whole numbers from 1, not {value!r}")
    return value


def _kernel_arg(spec, i):
    if not isinstance(spec, dict):
        raise ProtocolError("INVALID_ARGUMENT", f"`args[{i}]` must be an object")
    kind = _field(spec, "kind", str)
    if kind == "scalar":
        kind_of = _field(spec, "type", str)
        value = _field(spec, "value", (int, float))
        if kind_of not in SCALAR_TYPES:
            raise ProtocolError("INVALID_ARGUMENT", f"`args[{i}].type` must be one of {', '.join(SCALAR_TYPES)}, not {kind_of!r}")
        return {"kind": kind, "type": kind_of, "value": value}
    if kind not in ("input", "output"):
        raise ProtocolError("INVALID_ARGUMENT", f"`args[{i}].kind` must be input, output or scalar, not {kind!r}")
    array = _array(spec, f"args[{i}]")
    if array["dtype"] not in ("fp32", "fp64"):
        raise ProtocolError("INVALID_ARGUMENT", f"`args[{i}].dtype` must be fp32 or fp64, not {array['dtype']!r}")
    return {"kind": kind, **array}


def _prepare_kernel(request, checked):
    import re

    extra = sorted(set(request) - set(KERNEL_FIELDS))
    if extra:
        raise ProtocolError("INVALID_ARGUMENT", f"`{extra[0]}` is not a field of prepare-kernel: the compiler's options are the worker's own, and only the source, its file's name and the kernel's name reach it")
    library = _field(request, "library", str)
    if library not in KERNEL_LIBRARIES:
        raise ProtocolError("INVALID_ARGUMENT", f"`library` must be one of {', '.join(KERNEL_LIBRARIES)}, not {library!r}")
    checked["library"] = library
    checked["device"] = _field(request, "device", str)
    source = _field(request, "source", str)
    if not 1 <= len(source) <= MAX_SOURCE:
        raise ProtocolError("INVALID_ARGUMENT", f"`source` must hold 1 to {MAX_SOURCE} characters, not {len(source)}")
    checked["source"] = source
    checked["fileName"] = _field(request, "fileName", str)
    if not re.fullmatch(r"[\w.-]{1,120}", checked["fileName"]):
        raise ProtocolError("INVALID_ARGUMENT", f"`fileName` must be 1 to 120 letters, digits, dots, dashes or underscores, not {checked['fileName']!r}")
    checked["entry"] = _field(request, "entry", str)
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]{0,63}", checked["entry"]):
        raise ProtocolError("INVALID_ARGUMENT", f"`entry` must be a C identifier, not {checked['entry']!r}")
    checked["grid"] = _dims(request, "grid")
    checked["block"] = _dims(request, "block")
    shared = _field(request, "sharedBytes", int)
    if not 0 <= shared <= MAX_SHARED:
        raise ProtocolError("INVALID_ARGUMENT", f"`sharedBytes` must be from 0 to {MAX_SHARED}, not {shared}")
    checked["sharedBytes"] = shared
    args = _field(request, "args", list)
    if len(args) > 16:
        raise ProtocolError("INVALID_ARGUMENT", "`args` must hold at most 16 arguments")
    checked["args"] = [_kernel_arg(spec, i) for i, spec in enumerate(args)]
    min_ms = _field(request, "minSampleMs", (int, float), required=False)
    if min_ms is not None and not 0 <= min_ms <= 1000:
        raise ProtocolError("INVALID_ARGUMENT", f"`minSampleMs` must be a number from 0 to 1000, not {min_ms!r}")
    checked["minSampleMs"] = float(min_ms or 0)


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
    call = _field(request, "call", str)
    if call not in CALLS:
        raise ProtocolError("INVALID_ARGUMENT", f"`call` must be one of {', '.join(CALLS)}, not {call!r}")
    checked = {"id": rid, "call": call}
    if call == "probe":
        libraries = _field(request, "libraries", list)
        if not all(isinstance(x, str) for x in libraries):
            raise ProtocolError("INVALID_ARGUMENT", "`libraries` must be a list of names")
        checked["libraries"] = libraries
    elif call == "prepare":
        op = _field(request, "op", str)
        if op not in OPS:
            raise ProtocolError("INVALID_ARGUMENT", f"`op` must be one of {', '.join(OPS)}, not {op!r}")
        checked["op"] = op
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
        clock = _field(request, "clock", str, required=False)
        if clock is not None and clock not in CLOCKS:
            raise ProtocolError("INVALID_ARGUMENT", f"`clock` must be one of {', '.join(CLOCKS)}, not {clock!r}")
        checked["clock"] = clock
        min_ms = _field(request, "minSampleMs", (int, float), required=False)
        if min_ms is not None and (isinstance(min_ms, bool) or not 0 <= min_ms <= 1000):
            raise ProtocolError("INVALID_ARGUMENT", f"`minSampleMs` must be a number from 0 to 1000, not {min_ms!r}")
        checked["minSampleMs"] = float(min_ms or 0)
    elif call == "prepare-kernel":
        _prepare_kernel(request, checked)
    elif call == "reference":
        checked["output"] = _array(_field(request, "output", dict), "output")
        if checked["output"]["dtype"] != "fp64":
            raise ProtocolError("INVALID_ARGUMENT", f"`output.dtype` of a reference must be fp64, not {checked['output']['dtype']!r}")
    elif call == "output":
        # The elements the engine's check reads, where it reads a sample: only those are written back.
        indices = _field(request, "indices", list, required=False)
        if indices is not None and (len(indices) > MAX_INDICES or not all(isinstance(i, int) and not isinstance(i, bool) and 0 <= i < 2**31 for i in indices)):
            raise ProtocolError("INVALID_ARGUMENT", f"`indices` must be at most {MAX_INDICES} integers from 0 to 2^31")
        checked["indices"] = indices
    elif call == "release":
        # The input files whose arrays stay for the peer points after (the engine's host/peer-files.ts); absent, none.
        keep = _field(request, "keep", list, required=False)
        if keep is not None and (len(keep) > 1000 or not all(isinstance(k, str) and len(k) <= 4096 for k in keep)):
            raise ProtocolError("INVALID_ARGUMENT", "`keep` must be at most 1000 file paths")
        checked["keep"] = keep or []
    elif call == "sample":
        checked["warmup"] = _field(request, "warmup", int)
        checked["count"] = _field(request, "count", int)
        if not (0 <= checked["warmup"] <= 100_000 and 1 <= checked["count"] <= 100_000):
            raise ProtocolError("INVALID_ARGUMENT", "`warmup` must be from 0 and `count` from 1, both at most 100000")
    return checked
