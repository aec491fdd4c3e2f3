#!/usr/bin/env bash
# Unit 10 (issue 47) on the GPU machine, in one call from the repository root, after npm ci and the native build:
#   1. what the interpreter has: PyTorch, transformers, cuda.core and cuda.bindings, PyCUDA (absent there) and nvcc;
#   2. gpu-lab peers, which lists PyCUDA and cuda.core beside the other peers;
#   3. tests/gpu/unit10.test.ts: the playground's multiply, add and SGEMM starters launched again from Python
#      (cuda.core where PyCUDA is not usable), checked and timed beside the NVRTC launch, and the text-to-image lab on
#      cuda:0 (every GPU point checked against the CPU's float64 step; the fp32 step at batch 1 within 5e-4), with
#      every figure printed as "[unit10] ...";
#   4. the PyCUDA path against stand-in modules (tests/unit/peers/kernel-launch.test.ts): PyCUDA itself runs on no GPU.
# Logs and the text-to-image run's record go to $OUT (or ./gpu-check-out). About 3 minutes on an H200.
#   bash scripts/gpu-check-unit10.sh
set -uo pipefail
out=${OUT:-gpu-check-out}
mkdir -p "$out"
export PYTHONUNBUFFERED=1 PYTHONDONTWRITEBYTECODE=1 HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1
# The interpreter the worker runs: the one named, else the image's python3 (the one that holds PyTorch).
export GPU_LAB_PYTHON=${GPU_LAB_PYTHON:-$(command -v python3)}
step() { printf '\n=== %s (%s)\n' "$1" "$(date +%T)"; }
started=$SECONDS

step "interpreter ($GPU_LAB_PYTHON)"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv,noheader 2>&1 | head -2
"$GPU_LAB_PYTHON" - <<'PY' 2>&1
import importlib, platform, shutil
print("python", platform.python_version(), "| nvcc:", shutil.which("nvcc") or "not on PATH")
for name in ("torch", "transformers", "cuda.core", "cuda.bindings", "pycuda", "diffusers"):
    try:
        module = importlib.import_module(name)
        print(f"{name} {getattr(module, '__version__', '?')}")
    except Exception as err:
        print(f"{name}: not usable ({type(err).__name__}: {err})")
PY

step "gpu-lab peers"
timeout 120 node bin/gpu-lab.js peers 2>&1 | tee "$out/unit10-peers.txt"

step "GPU tests: tests/gpu/unit10.test.ts"
GPU_LAB_UNIT10_RECORDS="$out" timeout 300 node --test --test-concurrency=1 --test-reporter=spec tests/gpu/unit10.test.ts > "$out/unit10.log" 2>&1
echo "node --test exit $?"
grep -E '^\[unit10\]' "$out/unit10.log"
grep -E '^ℹ (tests|pass|fail|skipped)|✖|^﹣' "$out/unit10.log" | head -30

step "the PyCUDA path against stand-ins (no GPU)"
timeout 120 npx vitest run tests/unit/peers/kernel-launch.test.ts > "$out/unit10-standins.log" 2>&1
echo "vitest exit $?"
grep -E 'Tests |✓|×' "$out/unit10-standins.log" | head -20

step "done in $((SECONDS - started)) s"
