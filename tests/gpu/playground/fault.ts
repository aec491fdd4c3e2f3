// Runs one kernel that leaves the CUDA context unusable, in a process of its own (spawned by
// tests/gpu/playground-native.test.ts): `oob` writes 1 GiB past a 256-element buffer, `endless` spins on a flag
// nobody sets. Prints one JSON line, { code, message, details, elapsedMs, next }, where `next` is the code of a
// second launch on the same device afterwards, then kills itself: an orderly exit could wait forever on the
// endless kernel (freeing memory synchronises the device), which is why the compute host is replaced, not exited.
import { compileKernel, createDeviceBuffer, cudaInventory, loadKernel } from '../../../native/index.ts';
import type { LoadedKernel } from '../../../native/index.ts';
import { GpuLabError } from '../../../main/common/errors.ts';

const SOURCES = {
  oob: 'extern "C" __global__ void oob(float* x) {\n  x[threadIdx.x + (1 << 28)] = 1.0f;\n}\n',
  endless: 'extern "C" __global__ void endless(float* x) {\n  while (*(volatile float*)x == 0.0f) {\n  }\n}\n',
} as const;

const mode = process.argv[2];
if (mode !== 'oob' && mode !== 'endless') throw new Error(`Expected oob or endless as the argument but received ${String(mode)}`);
const watchdogMs = Number(process.argv[3] ?? 2000);

function report(line: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify(line)}\n`, () => process.kill(process.pid, 'SIGKILL'));
}

async function codeOf(run: () => Promise<unknown>): Promise<{ err: GpuLabError | null; ms: number }> {
  const t0 = performance.now();
  try {
    await run();
    return { err: null, ms: performance.now() - t0 };
  } catch (e) {
    return { err: GpuLabError.from(e), ms: performance.now() - t0 };
  }
}

const cc = cudaInventory().devices[0]?.computeCapability ?? '9.0';
const compiled = compileKernel({ source: SOURCES[mode], fileName: `${mode}.cu`, entry: mode, arch: `sm_${cc.replace('.', '')}` });
if (!compiled.ok || !compiled.image || !compiled.loweredName) {
  report({ code: 'COMPILE_FAILED', message: compiled.log });
} else {
  const x = createDeviceBuffer('fp32', 256, 'cuda:0');
  x.write(new Float32Array(256));
  const kernel: LoadedKernel = loadKernel(compiled.image, compiled.loweredName, 'cuda:0');
  const launch = () => kernel.launch({ grid: [1, 1, 1], block: [32, 1, 1], args: [{ buffer: x }], warmup: 0, repeats: 1, watchdogMs });
  const first = await codeOf(launch);
  const second = await codeOf(launch);
  report({ code: first.err?.code ?? null, message: first.err?.message ?? null, details: first.err?.details ?? null, elapsedMs: first.ms, next: second.err?.code ?? null, nextMs: second.ms });
}
