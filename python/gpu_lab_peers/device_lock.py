"""The device locks of GPU Lab (main/engine/device-lock.ts), taken by the Python peers' tools too (tools/), so that a
peer never measures while a lab run, a kernel run or the bench measures on the same device, nor the other way round:
one run at a time per device per machine. The same files and the same rules: <tmp>/gpu-lab-locks/<device>.lock (or
GPU_LAB_LOCK_DIR) holding who took it as JSON, written whole to a temporary file and hard-linked to its name (link()
fails if the name is taken); a lock whose process is gone, or whose pid now names a process started at another time,
is taken over under a guard file. Waits, saying for whom, or with wait=False exits 75 (EX_TEMPFAIL).

    with device_lock(["cuda:0", "cpu"], "cuda_peers"):
        ...measure...

From a shell (PYTHONPATH=python): python3 -m gpu_lab_peers.device_lock [--no-wait] DEVICE... [-- CMD...] runs CMD
while holding the devices, or without CMD prints "held" and holds them until stdin closes.
"""
import atexit
import contextlib
import getpass
import json
import os
import re
import secrets
import socket
import sys
import tempfile
import time

POLL_S = 0.25
STALE_GUARD_S = 10.0
DEVICE = re.compile(r"^(cpu|cuda:\d{1,3})$")


def lock_dir():
    return os.environ.get("GPU_LAB_LOCK_DIR") or os.path.join(tempfile.gettempdir(), "gpu-lab-locks")


def start_ticks(pid):
    """When a process started, in clock ticks after boot (field 22 of /proc/<pid>/stat), or None."""
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8") as f:
            text = f.read()
        return int(text[text.rindex(")") + 2:].split(" ")[19])
    except (OSError, ValueError, IndexError):
        return None


def alive(holder):
    if holder.get("host") and holder["host"] != socket.gethostname():
        return True
    pid = holder.get("pid")
    if not isinstance(pid, int) or pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    then = holder.get("startTicks")
    now = start_ticks(pid)
    return then is None or now is None or now == then


def _read(path):
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except FileNotFoundError:
        return None


def _link_new(path, text):
    temp = f"{path}.{os.getpid()}.{secrets.token_hex(4)}.tmp"
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
    try:
        os.link(temp, path)
        return True
    except FileExistsError:
        return False
    finally:
        os.unlink(temp)


def _take_over(path, stale_text):
    guard = f"{path}.takeover"
    if not _link_new(guard, f"{os.getpid()}\n"):
        try:
            if time.time() - os.lstat(guard).st_mtime > STALE_GUARD_S:
                os.unlink(guard)
        except FileNotFoundError:
            pass
        time.sleep(0.02)
        return
    try:
        if _read(path) == stale_text:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(guard)


def _holder_text(h):
    return f"{h.get('user', '?')} (pid {h.get('pid', '?')}) is running {h.get('use', '?')} {h.get('name', '?')} there, since {h.get('since', '?')}"


def _ensure_dir(d):
    try:
        os.mkdir(d, 0o777)
        os.chmod(d, 0o777)
    except FileExistsError:
        pass
    if os.path.islink(d) or not os.path.isdir(d):
        sys.exit(f"device lock: {d} is not a folder (set GPU_LAB_LOCK_DIR to one that is)")


def _acquire_one(d, device, name, wait):
    path = os.path.join(d, device.replace(":", "-") + ".lock")
    me = {
        "user": getpass.getuser(),
        "pid": os.getpid(),
        "startTicks": start_ticks(os.getpid()),
        "host": socket.gethostname(),
        "use": "peers",
        "name": name,
        "device": device,
        "since": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "token": secrets.token_hex(8),
    }
    text = json.dumps(me) + "\n"
    told = None
    while True:
        if _link_new(path, text):
            return path, me["token"]
        current = _read(path)
        if current is None:
            continue
        try:
            holder = json.loads(current)
        except ValueError:
            holder = None
        if not isinstance(holder, dict) or not alive(holder):
            _take_over(path, current)
            continue
        if not wait:
            print(f"device lock: DEVICE_BUSY: {device} is in use: {_holder_text(holder)}", file=sys.stderr)
            sys.exit(75)
        if told != holder.get("token"):
            told = holder.get("token")
            print(f"device lock: waiting for {device}: {_holder_text(holder)}", file=sys.stderr)
        time.sleep(POLL_S)


def _release(path, token):
    text = _read(path)
    try:
        if text is not None and json.loads(text).get("token") == token:
            os.unlink(path)
    except (ValueError, OSError):
        pass


@contextlib.contextmanager
def device_lock(devices, name, wait=True):
    """Holds every device of `devices` (cpu first, then by number, as GPU Lab orders them) while the block runs."""
    wanted = sorted(set(devices), key=lambda d: (d != "cpu", int(d.split(":")[1]) if ":" in d else 0))
    for d in wanted:
        if not DEVICE.match(d):
            raise ValueError(f'a device lock is for "cpu" or "cuda:N", not "{d}"')
    d = lock_dir()
    _ensure_dir(d)
    taken = []
    atexit.register(lambda: [_release(p, t) for p, t in taken])
    try:
        for device in wanted:
            taken.append(_acquire_one(d, device, name, wait))
        yield
    finally:
        for path, token in reversed(taken):
            _release(path, token)
        taken.clear()


def main(argv=None):
    """python3 -m gpu_lab_peers.device_lock [--no-wait] DEVICE... -- CMD...: runs CMD while holding the devices."""
    args = sys.argv[1:] if argv is None else list(argv)
    no_wait = "--no-wait" in args
    args = [a for a in args if a != "--no-wait"]
    split = args.index("--") if "--" in args else len(args)
    devices, command = args[:split], args[split + 1:]
    with device_lock(devices, " ".join(command) or "hold", wait=not no_wait):
        if command:
            import subprocess

            return subprocess.call(command)
        print("held", flush=True)
        sys.stdin.read()
        return 0


if __name__ == "__main__":
    sys.exit(main())
