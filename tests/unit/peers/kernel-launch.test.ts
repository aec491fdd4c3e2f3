// Unit 10's launch path, run for real by python3 against stand-ins of PyCUDA and cuda.core that record every call
// (tests/fixtures/python-standins: their "GPU" is host memory and understands `dest[i] = a[i] OP b[i]` only). No GPU
// ran any of this: the cuda.core path runs on one in tests/gpu/unit10.test.ts; the PyCUDA path runs on none here.
// What is checked: the compilers get the checked source as it is and options fixed by the worker, never a field of
// the request; PyCUDA is taken where it imports, else cuda.core, else a waiver that says what to install; the output
// verified is the first launch's on a poisoned buffer; the host's side turns all of that into a comparison.
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';

import { PEER_KERNEL_PREPARED, PEER_REQUEST } from '../../../main/common/peer-protocol.ts';
import { MAX_SOURCE_CHARS } from '../../../main/common/playground.ts';
import type { Comparison, Throughput } from '../../../main/common/playground.ts';
import { MAX_KERNEL_SOURCE_CHARS } from '../../../main/common/peer-protocol.ts';
import { checkKernelSource } from '../../../main/common/pure/kernel-source-check.ts';
import { comparisonReason } from '../../../main/common/pure/i18n/error-text.ts';
import { translator } from '../../../main/common/pure/i18n/index.ts';
import type { KernelJob } from '../../../main/common/kernel-job.ts';
import { pythonLaunch } from '../../../main/host/kernel-python.ts';
import type { HostProblem } from '../../../main/host/kernel-problems.ts';
import { PeerWorker, probePeers } from '../../../main/host/python-worker.ts';
import { formatPeers } from '../../../main/cli/peers.ts';
import { cliText } from '../../../main/cli/cli-text.ts';
import { verifyElementwise } from '../../../main/host/verify-kernel.ts';

const root = join(import.meta.dirname, '..', '..', '..');
const standins = join(root, 'tests', 'fixtures', 'python-standins');
const dir = mkdtempSync(join(tmpdir(), 'gpu-lab-kernel-launch-'));
const started: PeerWorker[] = [];
afterAll(() => {
  started.forEach((w) => w.stop());
  rmSync(dir, { recursive: true, force: true });
});

const MULTIPLY = readFileSync(join(root, 'shaders/playground/multiply.starter.cu'), 'utf8');

// python3 with the stand-ins first on its path; `hide` makes the named packages fail to import, as if not installed.
function standinPython(name: string, hide: string[] = []): string {
  const path = join(dir, name);
  const hidden = hide.map((m) => `sys.modules[${JSON.stringify(m)}] = None`).join('\n');
  writeFileSync(`${path}.py`, `import sys\nsys.path.insert(0, ${JSON.stringify(standins)})\n${hidden}\nimport runpy\nrunpy.run_module('gpu_lab_peers', run_name='__main__')\n`);
  writeFileSync(path, `#!/bin/sh\nexec python3 '${path}.py'\n`);
  chmodSync(path, 0o755);
  return path;
}

const log = join(dir, 'calls.jsonl');
interface Call {
  call: string;
  [field: string]: unknown;
}
function calls(): Call[] {
  try {
    return readFileSync(log, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Call);
  } catch {
    return [];
  }
}
beforeEach(() => {
  rmSync(log, { force: true });
  process.env.GPU_LAB_STANDIN_LOG = log;
});
afterEach(() => {
  delete process.env.GPU_LAB_STANDIN_LOG;
});

// A file of floats (a copy: a small file's bytes may sit anywhere in Node's shared pool).
const floats = (path: string): Float32Array => new Float32Array(new Uint8Array(readFileSync(path)).buffer);

// Two inputs of n floats, and where the output goes.
function files(n: number, tag: string): { a: Float32Array; b: Float32Array; args: unknown[]; out: string } {
  const a = Float32Array.from({ length: n }, (_, i) => (i % 13) / 7 - 0.9);
  const b = Float32Array.from({ length: n }, (_, i) => (i % 5) / 3 - 0.4);
  const pa = join(dir, `${tag}-a.bin`);
  const pb = join(dir, `${tag}-b.bin`);
  writeFileSync(pa, new Uint8Array(a.buffer));
  writeFileSync(pb, new Uint8Array(b.buffer));
  const out = join(dir, `${tag}-out.bin`);
  return {
    a,
    b,
    out,
    args: [
      { kind: 'output', path: out, dtype: 'fp32', length: n },
      { kind: 'input', path: pa, dtype: 'fp32', length: n },
      { kind: 'input', path: pb, dtype: 'fp32', length: n },
      { kind: 'scalar', type: 'u64', value: n },
    ],
  };
}

const launch = (args: unknown[], extra: Record<string, unknown> = {}) => ({
  call: 'prepare-kernel' as const,
  library: 'auto' as const,
  device: 'cuda:0',
  source: MULTIPLY,
  fileName: 'multiply.cu',
  entry: 'multiply_them',
  grid: [4, 1, 1] as [number, number, number],
  block: [256, 1, 1] as [number, number, number],
  sharedBytes: 0,
  args: args as never,
  ...extra,
});

async function worker(python: string): Promise<PeerWorker> {
  const w = await PeerWorker.start({ ...process.env, GPU_LAB_PYTHON: python });
  started.push(w);
  return w;
}

describe('the worker launching a playground kernel', () => {
  it('PyCUDA where it imports: SourceModule gets the source as checked, an empty option list, no include folder, no cache; the output verified is the poisoned buffer’s first launch', async () => {
    const w = await worker(standinPython('python-pycuda'));
    const f = files(1000, 'pycuda');
    const answer = PEER_KERNEL_PREPARED.parse(await w.call(launch(f.args), 30_000));
    expect(answer).toMatchObject({ launcher: 'pycuda', library: 'PyCUDA 2025.1-standin' });
    await w.call({ call: 'output' }, 30_000);
    const got = floats(f.out);
    expect(Array.from(got)).toEqual(Array.from(f.a, (x, i) => Math.fround(x * (f.b[i] ?? 0))));
    const log = calls();
    const compiled = log.find((c) => c.call === 'SourceModule');
    // PyCUDA reads PYCUDA_DEFAULT_NVCC_FLAGS when options is None: an empty list keeps the environment out too.
    expect(compiled).toEqual({ call: 'SourceModule', source: MULTIPLY, nvcc: 'nvcc', options: [], keep: false, no_extern_c: false, arch: 'sm_90', code: null, cache_dir: false, include_dirs: [] });
    expect(log.find((c) => c.call === 'get_function')).toEqual({ call: 'get_function', name: 'multiply_them' });
    const order = log.map((c) => c.call);
    expect(order.indexOf('memset_d8')).toBeLessThan(order.indexOf('run'));
    expect(log.find((c) => c.call === 'memset_d8')).toMatchObject({ value: 255, bytes: 4000 });
    expect(log.find((c) => c.call === 'run')).toMatchObject({ entry: 'multiply_them', grid: [4, 1, 1], block: [256, 1, 1], scalars: [1000] });
    const sampled = (await w.call({ call: 'sample', warmup: 1, count: 6 }, 30_000)) as { samplesMs: number[]; clock: string };
    expect(sampled.samplesMs).toHaveLength(6);
    expect(sampled.clock).toBe('events');
    await w.call({ call: 'release' }, 30_000);
    expect(calls().filter((c) => c.call === 'free')).toHaveLength(3);
    expect(calls().some((c) => c.call === 'Context.pop')).toBe(true);
  });

  it('cuda.core where PyCUDA does not import: Program gets the source as checked, ProgramOptions the host’s own NVRTC options and nothing else, the kernel found by its name expression', async () => {
    const w = await worker(standinPython('python-cuda-core', ['pycuda']));
    const f = files(777, 'core');
    const answer = PEER_KERNEL_PREPARED.parse(await w.call(launch(f.args), 30_000));
    expect(answer).toMatchObject({ launcher: 'cuda-core', library: 'cuda.core 1.2.0-standin' });
    await w.call({ call: 'output' }, 30_000);
    const got = floats(f.out);
    expect(Array.from(got)).toEqual(Array.from(f.a, (x, i) => Math.fround(x * (f.b[i] ?? 0))));
    const log = calls();
    expect(log.find((c) => c.call === 'Program')).toEqual({ call: 'Program', code: MULTIPLY, code_type: 'c++' });
    expect(log.find((c) => c.call === 'ProgramOptions')).toEqual({ call: 'ProgramOptions', name: 'multiply.cu', arch: 'sm_90', std: 'c++17', lineinfo: true, no_source_include: true, use_bundled_headers: false });
    expect(log.find((c) => c.call === 'compile')).toEqual({ call: 'compile', target_type: 'cubin', name_expressions: ['multiply_them'] });
    const order = log.map((c) => c.call);
    expect(order.indexOf('cuMemsetD8')).toBeLessThan(order.indexOf('run'));
    // Events that record time around the launch.
    expect(log.filter((c) => c.call === 'Stream.record').every((c) => c.timing === true)).toBe(true);
    await w.call({ call: 'release' }, 30_000);
    expect(calls().filter((c) => c.call === 'Buffer.close')).toHaveLength(3);
  });

  it('refuses a request that carries anything but its fields — a compiler option, an include folder, a define — before any compiler is called, naming the field', async () => {
    const w = await worker(standinPython('python-refuse'));
    const f = files(8, 'refuse');
    for (const extra of [{ options: ['-I/etc'] }, { include_dirs: ['/etc'] }, { include_path: '/etc' }, { define_macro: 'X' }]) {
      const field = Object.keys(extra)[0] ?? '';
      // The engine's own schema has no such field either.
      expect(PEER_REQUEST.safeParse({ id: 1, ...launch(f.args, extra) }).success).toBe(false);
      // Past it, the worker refuses it too.
      await expect(w.call(launch(f.args, extra) as never, 30_000)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining(`\`${field}\``) });
    }
    expect(calls().filter((c) => c.call === 'SourceModule' || c.call === 'Program')).toEqual([]);
    expect(w.alive).toBe(true);
  });

  it('with neither library: LIBRARY_UNAVAILABLE, saying what to install', async () => {
    const w = await worker(standinPython('python-neither', ['pycuda', 'cuda']));
    const f = files(8, 'neither');
    await expect(w.call(launch(f.args), 30_000)).rejects.toMatchObject({ code: 'LIBRARY_UNAVAILABLE', message: expect.stringMatching(/pip install pycuda.*pip install cuda-core/) });
  });

  it('gpu-lab peers lists PyCUDA and cuda.core: their versions and devices, or why not', async () => {
    const both = await probePeers(['pycuda', 'cuda-core'], { ...process.env, GPU_LAB_PYTHON: standinPython('probe-both') });
    expect(both.available && both.probe.libraries).toMatchObject({
      pycuda: { found: true, version: '2025.1-standin', cudaAvailable: true, devices: ['Stand-in GPU'], cudaVersion: '13.0' },
      'cuda-core': { found: true, version: '1.2.0-standin', cudaAvailable: true, devices: ['Stand-in GPU'], cudaVersion: '13.3' },
    });
    const listed = formatPeers(both, { locale: 'en', t: cliText('en') });
    expect(listed).toMatch(/^PyCUDA, version 2025\.1-standin\n {2}built for CUDA 13\.0\n {2}CUDA: available, 1 device\(s\): Stand-in GPU$/m);
    expect(listed).toMatch(/^cuda\.core, version 1\.2\.0-standin\n {2}built for CUDA 13\.3\n/m);
    const neither = await probePeers(['pycuda', 'cuda-core'], { ...process.env, GPU_LAB_PYTHON: standinPython('probe-neither', ['pycuda', 'cuda']) });
    const said = formatPeers(neither, { locale: 'es', t: cliText('es') });
    expect(said).toMatch(/PyCUDA: .*pycuda/);
    expect(said).toMatch(/cuda\.core: .*cuda/);
  });

  it('the source limit is the playground’s', () => {
    expect(MAX_KERNEL_SOURCE_CHARS).toBe(MAX_SOURCE_CHARS);
  });
});

// The host's side, as a kernel run calls it after NVRTC's launch was verified and timed.
describe('a kernel run’s launch from Python (host/kernel-python.ts)', () => {
  const n = 4096;
  const a = Float32Array.from({ length: n }, (_, i) => Math.sin(i));
  const b = Float32Array.from({ length: n }, (_, i) => Math.cos(i / 3));
  const problem: HostProblem = {
    args: [{ kind: 'output', dtype: 'fp32', length: n }, { kind: 'input', values: a }, { kind: 'input', values: b }, { kind: 'scalar', type: 'u64', value: n }],
    check: (got) => verifyElementwise(got, (i) => (a[i] ?? 0) * (b[i] ?? 0), 'fp32'),
  };
  const job = (source: string): KernelJob => ({ exercise: 'multiply', device: 'cuda:0', size: n, source, fileName: 'mine.cu', launch: { grid: [16, 1, 1], block: [256, 1, 1] }, compare: true, references: [], seed: 1, listings: [] });
  const rate = (samples: number[]): Throughput => ({ medianMs: samples[0] ?? 0, samplesMs: samples, rate: 1, peakFraction: null });
  const run = async (python: string, source: string): Promise<Comparison> => {
    process.env.GPU_LAB_PYTHON = python;
    try {
      return await pythonLaunch(job(source), 'multiply_them', problem, rate, new AbortController().signal);
    } finally {
      delete process.env.GPU_LAB_PYTHON;
    }
  };

  it('a right kernel: verified by the exercise’s own check, and timed in rounds of events until its interval is narrow', async () => {
    const c = await run(standinPython('host-pycuda'), MULTIPLY);
    expect(c).toMatchObject({ id: 'python-pycuda', kind: 'python', verified: true, error: null, implementation: expect.stringMatching(/^PyCUDA 2025\.1-standin \(Python 3\./) });
    expect(c.throughput?.samplesMs.length).toBeGreaterThanOrEqual(6);
  });

  it('a wrong kernel (a sum for the product) has no figure and says how wrong, in both languages', async () => {
    const c = await run(standinPython('host-wrong', ['pycuda']), MULTIPLY.replace('a[i] * b[i]', 'a[i] + b[i]'));
    expect(c).toMatchObject({ id: 'python-cuda-core', verified: false, throughput: null });
    expect(comparisonReason(c, translator('en'), 'en')).toMatch(/^failed verification: \d+ of 4096 elements checked are wrong, 0 of 4096 never written/);
    expect(comparisonReason(c, translator('es'), 'es')).toMatch(/de 4096 elementos comprobados son erróneos/);
  });

  it('a kernel the library does not compile: no figure, the compiler’s words', async () => {
    const c = await run(standinPython('host-broken'), `${MULTIPLY}\n// does_not_compile\n`);
    expect(c).toMatchObject({ id: 'python', verified: false, throughput: null, error: expect.stringContaining('SourceModule did not compile it') });
  });

  it('no library to launch with: a waiver that says what to install, in English and in Spanish', async () => {
    const c = await run(standinPython('host-neither', ['pycuda', 'cuda']), MULTIPLY);
    expect(c).toMatchObject({ id: 'python', throughput: null, why: { key: 'playground.python.missing' } });
    expect(comparisonReason(c, translator('es'), 'es')).toMatch(/no tiene ni PyCUDA ni cuda\.core .*pip install pycuda.*pip install cuda-core\[cu13\]/);
  });

  it('no interpreter at all: a waiver naming it', async () => {
    const c = await run(join(dir, 'no-such-python'), MULTIPLY);
    expect(c).toMatchObject({ id: 'python', throughput: null, why: { key: 'playground.python.noInterpreter' } });
    expect(c.error).toContain('no-such-python');
  });

  it('a source the door refuses never gets this far: the worker is handed the job’s source, which the door checked', () => {
    expect(checkKernelSource(`#include "/etc/passwd"\n${MULTIPLY}`)).not.toBeNull();
  });
});
