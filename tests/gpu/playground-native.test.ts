// The kernel playground's native half on a real GPU: NVRTC compiles a student's source for the device's
// architecture, the image loads, launches on device buffers and is checked element by element; compiler errors
// come back as a result naming the line; occupancy matches a hand count; timing gives one sample per repeat. A
// kernel that faults or never ends is run in a child process (tests/gpu/playground/fault.ts), since it leaves the
// CUDA context unusable, and must come back as DEVICE_LOST / TIMEOUT with sticky set, within the watchdog.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

import { compileKernel, createDeviceBuffer, cudaInventory, loadKernel, nvrtcInfo, poison } from '../../native/index.ts';
import type { CompiledKernel, LoadedKernel } from '../../native/index.ts';
import { DEVICE, Owned, assertCode, skipWithoutGpu, twins } from './helpers.ts';

const nvrtc = nvrtcInfo();
const skip = skipWithoutGpu || (nvrtc.available ? false : `no NVRTC here (${nvrtc.reason ?? 'unknown'})`);
const device = cudaInventory().devices[0];
const arch = `sm_${(device?.computeCapability ?? '0.0').replace('.', '')}`;

// Not extern "C": the kernel is found through the name NVRTC lowered it to.
const SAXPY = `__global__ void saxpy(int n, float a, const float* x, const float* y, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a * x[i] + y[i];
}
`;

function compiled(source: string, entry: string): CompiledKernel & { image: Uint8Array; loweredName: string } {
  const c = compileKernel({ source, fileName: `${entry.replace(/\W/g, '_')}.cu`, entry, arch });
  assert.ok(c.ok && c.image && c.loweredName, `${entry} did not compile:\n${c.log}`);
  return { ...c, image: c.image, loweredName: c.loweredName };
}

function withKernel<T>(source: string, entry: string, body: (k: LoadedKernel, c: CompiledKernel) => Promise<T>): Promise<T> {
  const c = compiled(source, entry);
  const k = loadKernel(c.image, c.loweredName, DEVICE);
  return body(k, c).finally(() => k.dispose());
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
}

describe('NVRTC compile, load and launch', { skip }, () => {
  it(`saxpy compiled for ${arch} writes every one of 1 000 003 elements right (a·x + y, fp32)`, async () => {
    const owned = new Owned();
    try {
      const n = 1_000_003;
      const a = 2.5;
      const x = twins(owned, 'fp32', n, { low: -4, high: 4 });
      const y = twins(owned, 'fp32', n, { low: -4, high: 4 });
      const out = owned.add(createDeviceBuffer('fp32', n, DEVICE));
      poison(out);
      const t0 = performance.now();
      await withKernel(SAXPY, 'saxpy', async (k, c) => {
        assert.equal(c.arch, arch);
        assert.match(c.loweredName ?? '', /^_Z5saxpy/);
        assert.equal(k.attributes.binaryVersion, Number(arch.slice(3)));
        assert.deepEqual(k.parameterSizes, [4, 4, 8, 8, 8]);
        const r = await k.launch({ grid: [Math.ceil(n / 256), 1, 1], block: [256, 1, 1], args: [{ i32: n }, { f32: a }, { buffer: x.dev }, { buffer: y.dev }, { buffer: out }], warmup: 0, repeats: 1, watchdogMs: 2000 });
        console.log(`saxpy: NVRTC ${nvrtc.version ?? '?'} compiled in ${c.ms.toFixed(1)} ms, compile + load + launch ${(performance.now() - t0).toFixed(1)} ms, kernel ${r.samplesMs[0]?.toFixed(4) ?? '?'} ms`);
      });
      const xs = x.host.toFloat64();
      const ys = y.host.toFloat64();
      const got = out.toFloat64();
      let bad = 0;
      const first: string[] = [];
      for (let i = 0; i < n; i++) {
        const ax = Math.fround(a) * (xs[i] ?? 0);
        const want = Math.fround(ax + (ys[i] ?? 0));
        const g = got[i] ?? Number.NaN;
        // One fp32 rounding of a·x and one of the sum (none of the product where the compiler fuses them): each
        // within half an fp32 epsilon of the operands' size.
        if (!(Math.abs(g - want) <= 1.2e-7 * (Math.abs(ax) + Math.abs(ys[i] ?? 0)))) {
          bad++;
          if (first.length < 5) first.push(`[${i}] ${g} ≠ ${want}`);
        }
      }
      assert.equal(bad, 0, `${bad} wrong elements (seeds ${x.seed}, ${y.seed}): ${first.join(', ')}`);
    } finally {
      owned.free();
    }
  });

  it('a template instance is found by its name expression and launched', async () => {
    const owned = new Owned();
    try {
      const source = 'template <typename T>\n__global__ void scale(T* v, T s, int n) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) v[i] *= s;\n}\n';
      const v = twins(owned, 'fp64', 1000, { low: -1, high: 1 });
      await withKernel(source, 'scale<double>', (k) => k.launch({ grid: [4, 1, 1], block: [256, 1, 1], args: [{ buffer: v.dev }, { f64: -3 }, { i32: 1000 }], warmup: 0, repeats: 1, watchdogMs: 2000 }));
      const want = v.host.toFloat64().map((e) => -3 * e);
      assert.deepEqual(Array.from(v.dev.toFloat64()), Array.from(want));
    } finally {
      owned.free();
    }
  });

  it('an architecture NVRTC does not list (sm_91, as a GPU newer than the library) gets PTX for the one below, which the driver compiles at load', async () => {
    const owned = new Owned();
    try {
      const c = compileKernel({ source: SAXPY, fileName: 'saxpy.cu', entry: 'saxpy', arch: 'sm_91' });
      assert.ok(c.ok && c.image && c.loweredName, c.log);
      assert.match(c.arch, /^compute_\d+$/);
      const ptx = new TextDecoder().decode(c.image);
      assert.match(ptx, /\.target sm_\d+/);
      console.log(`sm_91 fell back to ${c.arch} (${c.image.byteLength} bytes of PTX)`);
      if (Number(c.arch.slice('compute_'.length)) > Number(arch.slice(3))) return;
      const n = 1000;
      const x = twins(owned, 'fp32', n);
      const y = twins(owned, 'fp32', n);
      const out = owned.add(createDeviceBuffer('fp32', n, DEVICE));
      poison(out);
      const k = loadKernel(c.image, c.loweredName, DEVICE);
      try {
        await k.launch({ grid: [4, 1, 1], block: [256, 1, 1], args: [{ i32: n }, { f32: 1 }, { buffer: x.dev }, { buffer: y.dev }, { buffer: out }], warmup: 0, repeats: 1, watchdogMs: 2000 });
      } finally {
        k.dispose();
      }
      const xs = x.host.toFloat64();
      const ys = y.host.toFloat64();
      assert.deepEqual(Array.from(out.toFloat64()), Array.from(xs, (v, i) => Math.fround(v + (ys[i] ?? 0))));
    } finally {
      owned.free();
    }
  });

  it('a syntax error is a result, not an exception: ok false and a log naming line 3', () => {
    const c = compileKernel({ source: '__global__ void broken(float* x) {\n  int i = threadIdx.x;\n  x[i] = 1.0f +;\n}\n', fileName: 'broken.cu', entry: 'broken', arch });
    assert.equal(c.ok, false);
    assert.equal(c.image, null);
    assert.equal(c.loweredName, null);
    assert.match(c.log, /broken\.cu\(3\): error/);
    // A kernel under another name than the exercise's: the log says which name was looked for.
    const renamed = compileKernel({ source: SAXPY.replace('saxpy', 'saxpy2'), fileName: 'saxpy.cu', entry: 'saxpy', arch });
    assert.equal(renamed.ok, false);
    assert.match(renamed.log, /saxpy/);
    console.log(`renamed kernel: ${renamed.log.trim()}`);
  });

  it('occupancy: 256-thread blocks fit at least once per SM; 40 KiB of shared memory per block caps them by hand count', async () => {
    const sharedPerSm = device?.sharedMemoryPerMultiprocessorBytes ?? 0;
    const plain = await withKernel(SAXPY, 'saxpy', (k) => Promise.resolve(k.occupancy(256)));
    assert.ok(plain.blocksPerSm >= 1, JSON.stringify(plain));
    assert.equal(plain.activeWarpsPerSm, plain.blocksPerSm * 8);
    assert.equal(plain.occupancy, plain.activeWarpsPerSm / plain.maxWarpsPerSm);
    const tiled = 'extern "C" __global__ void __launch_bounds__(256) tiled(const float* x, float* out) {\n  __shared__ float tile[10240];\n  for (int j = threadIdx.x; j < 10240; j += blockDim.x) tile[j] = x[j];\n  __syncthreads();\n  out[threadIdx.x] = tile[(threadIdx.x * 37) % 10240];\n}\n';
    const heavy = await withKernel(tiled, 'tiled', (k) => {
      assert.equal(k.attributes.staticSharedBytes, 40960);
      return Promise.resolve(k.occupancy(256));
    });
    // Each block also takes 1 KiB the runtime reserves (sm_80 on); threads alone would allow 2048 / 256 = 8.
    const byHand = Math.min(Math.floor(sharedPerSm / (40960 + 1024)), Math.floor(plain.maxWarpsPerSm / 8));
    console.log(`occupancy at 256 threads: saxpy ${plain.blocksPerSm} blocks/SM (${(plain.occupancy * 100).toFixed(0)} %), 40 KiB shared ${heavy.blocksPerSm} (by hand ${byHand}, ${sharedPerSm} B shared per SM)`);
    assert.equal(heavy.blocksPerSm, byHand);
    assert.ok(heavy.blocksPerSm < plain.blocksPerSm);
  });

  it('a block past the kernel\'s maxThreadsPerBlock (__launch_bounds__(128)) is INVALID_ARGUMENT naming `block`', async () => {
    const source = 'extern "C" __global__ void __launch_bounds__(128) bounded(float* x) {\n  x[threadIdx.x] = 1.0f;\n}\n';
    const owned = new Owned();
    try {
      const x = owned.add(createDeviceBuffer('fp32', 1024, DEVICE));
      await withKernel(source, 'bounded', async (k) => {
        assert.equal(k.attributes.maxThreadsPerBlock, 128);
        await assertCode(() => k.launch({ grid: [1, 1, 1], block: [256, 1, 1], args: [{ buffer: x }], warmup: 0, repeats: 1, watchdogMs: 2000 }), 'INVALID_ARGUMENT', ['`block`', 'at most 128 threads']);
        await assertCode(() => k.launch({ grid: [1, 1, 1], block: [2048, 1, 1], args: [{ buffer: x }], warmup: 0, repeats: 1, watchdogMs: 2000 }), 'INVALID_ARGUMENT', ['`block`']);
        // Refused by cudaLaunchKernel itself: a CUDA error naming the configuration, which leaves the context usable.
        const tooMuch = await assertCode(() => k.launch({ grid: [1, 1, 1], block: [128, 1, 1], dynamicSharedBytes: 1 << 20, args: [{ buffer: x }], warmup: 0, repeats: 1, watchdogMs: 2000 }), 'CUDA_ERROR', ['grid [1, 1, 1]', 'block [128, 1, 1]', '1048576 bytes of dynamic shared memory']);
        assert.deepEqual((tooMuch as Error & { details?: unknown }).details, { sticky: false });
        console.log(`too much shared memory: ${tooMuch.message}`);
        await k.launch({ grid: [1, 1, 1], block: [128, 1, 1], args: [{ buffer: x }], warmup: 0, repeats: 1, watchdogMs: 2000 });
      });
    } finally {
      owned.free();
    }
  });

  it('timing: warm-up, then one event-timed sample per repeat, all above 0; zeroBeforeEach clears a sum each time', async () => {
    const owned = new Owned();
    try {
      const n = 1 << 22;
      const x = twins(owned, 'fp32', n, { low: 0, high: 1 });
      const sum = owned.add(createDeviceBuffer('fp32', 1, DEVICE));
      const source = 'extern "C" __global__ void total(const float* x, float* sum, int n) {\n  float s = 0.0f;\n  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) s += x[i];\n  atomicAdd(sum, s);\n}\n';
      const r = await withKernel(source, 'total', (k) => k.launch({ grid: [264, 1, 1], block: [256, 1, 1], args: [{ buffer: x.dev }, { buffer: sum }, { i32: n }], warmup: 2, repeats: 7, watchdogMs: 2000, zeroBeforeEach: [sum] }));
      assert.equal(r.samplesMs.length, 7);
      assert.ok(r.samplesMs.every((ms) => ms > 0), `samples ${r.samplesMs.join(', ')}`);
      const want = x.host.toFloat64().reduce((a, b) => a + b, 0);
      const got = sum.toFloat64()[0] ?? Number.NaN;
      // Nine launches without the clearing would leave nine sums.
      assert.ok(Math.abs(got - want) / want < 1e-3, `sum ${got}, expected ${want}`);
      const ms = median(r.samplesMs);
      console.log(`sum of ${n} fp32: median ${ms.toFixed(4)} ms (${((n * 4) / ms / 1e6).toFixed(0)} GB/s read), samples ${r.samplesMs.map((v) => v.toFixed(4)).join(', ')}`);
    } finally {
      owned.free();
    }
  });
});

interface FaultReport {
  code: string | null;
  message: string | null;
  details: { sticky?: boolean; watchdogMs?: number } | null;
  elapsedMs: number;
  next: string | null;
}

const FAULT_SCRIPT = join(dirname(fileURLToPath(import.meta.url)), 'playground', 'fault.ts');

// The child prints one JSON line and kills itself; a child that never answers is killed after `limitMs`.
function runFault(mode: 'oob' | 'endless', watchdogMs: number, limitMs: number): Promise<FaultReport> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [FAULT_SCRIPT, mode, String(watchdogMs)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), limitMs);
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('close', () => {
      clearTimeout(timer);
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve(JSON.parse(line) as FaultReport);
      else reject(new Error(`the ${mode} child printed no report within ${limitMs} ms:\n${out}\n${err}`));
    });
  });
}

describe('kernels that break the context, each in a child process', { skip }, () => {
  it('an out-of-bounds write (1 GiB past a 256-element buffer) is DEVICE_LOST with sticky true, and so is the next launch', async () => {
    const r = await runFault('oob', 2000, 30_000);
    console.log(`oob: ${r.code ?? 'no error'}: ${r.message ?? ''} (next launch: ${r.next ?? 'ok'})`);
    assert.ok(r.code === 'DEVICE_LOST' || r.code === 'CUDA_ERROR', `code ${String(r.code)}: ${r.message ?? ''}`);
    assert.equal(r.details?.sticky, true);
    assert.match(r.message ?? '', /cudaError\w+/);
    assert.equal(r.next, 'DEVICE_LOST');
  });

  it('an endless loop is TIMEOUT within the watchdog + 1 s, and the next launch is refused at once', async () => {
    const watchdogMs = 1500;
    const r = await runFault('endless', watchdogMs, 30_000);
    console.log(`endless: ${r.code ?? 'no error'} after ${r.elapsedMs.toFixed(0)} ms: ${r.message ?? ''} (next launch: ${r.next ?? 'ok'})`);
    assert.equal(r.code, 'TIMEOUT', r.message ?? '');
    assert.deepEqual(r.details, { sticky: true, watchdogMs });
    assert.ok(r.elapsedMs >= watchdogMs && r.elapsedMs < watchdogMs + 1000, `${r.elapsedMs} ms`);
    assert.match(r.message ?? '', /still running after 1500 ms/);
    assert.equal(r.next, 'DEVICE_LOST');
  });
});
