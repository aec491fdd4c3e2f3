// The kernel playground end to end on the GPU machine, through a real compute host: every exercise's starter and
// reference kernels compile with NVRTC, pass verification and are timed; wrong kernels fail verification with the
// first bad indices; a syntax error comes back with its line; an out-of-bounds write and an endless loop fail the
// run with the CUDA error and cost one compute-host restart, after which the next run works. Prints the figures of
// issue 12's targets.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';

import type { ExerciseId, KernelRun, KernelRunRequest } from '../../main/common/playground.ts';
import { EXERCISES, exerciseDefinition } from '../../main/common/exercises.ts';
import { createLabHost } from '../../main/app/lab-host.ts';
import type { LabHost } from '../../main/app/lab-host.ts';
import { skipWithoutGpu } from './helpers.ts';

const root = join(import.meta.dirname, '..', '..');
const read = (file: string): string => readFileSync(join(root, file), 'utf8');

let host: LabHost;

async function run(request: KernelRunRequest): Promise<KernelRun> {
  return host.playground.runKernel(request);
}

function figure(line: string): void {
  process.stdout.write(`[playground] ${line}\n`);
}

describe('kernel playground', { skip: skipWithoutGpu }, () => {
  before(() => {
    host = createLabHost({ dataDir: mkdtempSync(join(tmpdir(), 'gpu-lab-playground-')), warn: () => undefined });
  });
  after(async () => {
    await host.dispose();
  });

  it('says it can compile and run kernels here', async () => {
    const status = await host.playground.status();
    assert.equal(status.unavailableReason, null, JSON.stringify(status));
    assert.ok(status.nvrtc.available);
  });

  for (const def of EXERCISES) {
    it(`${def.id}: the starter and every reference compile, verify and are timed, beside the built-ins`, async () => {
      const starter = def.kernels.find((k) => k.kind === 'starter');
      assert.ok(starter);
      const r = await run({ exercise: def.id, source: read(starter.file) });
      assert.equal(r.status, 'verified', JSON.stringify(r.error ?? r.result?.compile.log ?? r.result?.verification));
      const result = r.result;
      assert.ok(result?.throughput && result.launch);
      assert.ok(result.launch.occupancy > 0 && result.launch.occupancy <= 1);
      assert.ok(result.throughput.samplesMs.length >= 5);
      const expected = def.kernels.filter((k) => k.kind === 'reference').length + def.builtins.length + (def.fromPython ? 1 : 0);
      assert.equal(result.comparisons.length, expected);
      for (const c of result.comparisons) {
        // Unit 10's launch from Python: measured where GPU_LAB_PYTHON has PyCUDA or cuda.core, else a row saying what
        // to install (tests/gpu/unit10.test.ts runs it on the venv's cuda.core).
        if (c.kind === 'python' && !c.throughput) {
          assert.match(c.why?.key ?? '', /^playground\.python\.(missing|noInterpreter)$/, c.error ?? '');
          continue;
        }
        // cuBLAS may be absent on a user's machine, never on the GPU machine.
        assert.ok(c.verified && c.throughput, `${c.id}: ${c.error ?? ''}`);
      }
      const rows = [`starter ${result.throughput.rate.toFixed(1)}`, ...result.comparisons.map((c) => `${c.id} ${c.throughput?.rate.toFixed(1) ?? '-'}`)];
      figure(`${def.id} at ${def.size.name} = ${result.size} (${def.metric}): ${rows.join(', ')}; compile ${result.compile.ms.toFixed(0)} ms, total ${result.totalMs.toFixed(0)} ms, occupancy ${(result.launch.occupancy * 100).toFixed(0)} %`);
    });
  }

  // Issues 24 and 39: every exercise's compile-verify-time round trip at its default size, SGEMM's 4096² included,
  // with where the time went. The target is 500 ms on the GPU machine, printed as a figure; a second is asserted, as
  // a bound on regressions well above it (the GPU machine is shared, and one slow round trip is not a regression).
  for (const def of EXERCISES) {
    it(`compile, verify and time round trip of ${def.id} (target under 500 ms, printed with its phases; bound 1 s)`, async () => {
      const source = read(def.kernels.find((k) => k.kind === 'starter')?.file ?? '');
      const runs: { ms: number; phases: string; method: string }[] = [];
      for (let i = 0; i < 5; i++) {
        // A different source each time, so that nothing is served from a cache.
        const started = performance.now();
        const r = await run({ exercise: def.id, source: `${source}\n// attempt ${i}\n`, compare: false });
        const ms = performance.now() - started;
        assert.equal(r.status, 'verified', JSON.stringify(r.error ?? r.result?.verification));
        const p = r.result?.phasesMs;
        assert.ok(p);
        runs.push({ ms, phases: `compile ${p.compile.toFixed(0)}, inputs ${p.inputs.toFixed(0)}, verify ${p.verify.toFixed(0)}, time ${p.time.toFixed(0)} (${r.result?.repeats} launches)`, method: r.result?.verification?.method ?? '?' });
      }
      const sorted = [...runs].sort((x, y) => x.ms - y.ms);
      const median = sorted[2];
      assert.ok(median);
      figure(`${def.id} round trip: median ${median.ms.toFixed(0)} ms (${median.phases}) of ${runs.map((r) => r.ms.toFixed(0)).join(', ')} ms (target < 500 ms: ${median.ms < 500 ? 'met' : 'NOT MET'}); checked ${median.method}`);
      assert.ok(median.ms < 1000);
    });
  }

  it('the reference SGEMM at 4096² against cuBLAS fp32 (printed; target within 1.25×)', async () => {
    const r = await run({ exercise: 'sgemm', source: read('shaders/playground/sgemm.starter.cu') });
    const tiled = r.result?.comparisons.find((c) => c.id === 'builtin-tiled')?.throughput;
    const cublas = r.result?.comparisons.find((c) => c.id === 'cublas')?.throughput;
    assert.ok(tiled && cublas);
    const ratio = tiled.medianMs / cublas.medianMs;
    figure(`SGEMM 4096²: reference tiled ${tiled.medianMs.toFixed(3)} ms (${tiled.rate.toFixed(0)} GFLOP/s), cuBLAS ${cublas.medianMs.toFixed(3)} ms (${cublas.rate.toFixed(0)} GFLOP/s): ${ratio.toFixed(2)}× (target ≤ 1.25×)`);
    assert.ok(ratio <= 1.25);
  });

  // Issue 24, item 5: the reduction's default 2²³ floats (32 MiB) fit in an H100's 50 MiB L2, and the timed
  // launches read them from there, past DRAM's peak: the run says so and gives no share of that peak.
  it('the reduction at its default size says it ran from L2 where the L2 holds it, with no share of DRAM peak', async () => {
    const def = exerciseDefinition('reduction');
    const r = await run({ exercise: 'reduction', source: read('shaders/playground/reduction.starter.cu'), compare: false });
    const result = r.result;
    assert.ok(result?.throughput, JSON.stringify(r.error));
    const device = (await host.devices.listDevices()).devices.find((d) => d.id === result.device);
    const l2Bytes = device?.details.l2CacheBytes;
    assert.ok(typeof l2Bytes === 'number' && l2Bytes > 0, JSON.stringify(device?.details));
    const workingSetBytes = def.work(result.size);
    if (workingSetBytes <= l2Bytes) {
      assert.deepEqual(result.l2, { workingSetBytes, l2Bytes });
      assert.equal(result.peak, null);
      assert.equal(result.throughput.peakFraction, null);
    } else {
      assert.equal(result.l2, undefined);
      assert.ok(result.peak && result.throughput.peakFraction !== null);
    }
    figure(`reduction at n = ${result.size}: ${workingSetBytes} B against an L2 of ${l2Bytes} B, ${result.throughput.rate.toFixed(0)} GB/s, ${result.l2 ? 'from L2, no share of peak' : `${((result.throughput.peakFraction ?? 0) * 100).toFixed(1)} % of DRAM peak`}`);
  });

  const wrong = (exercise: ExerciseId, file: string, edit: (s: string) => string): Promise<KernelRun> => run({ exercise, source: edit(read(file)), compare: false });

  it('an off-by-one kernel fails verification at the last element', async () => {
    const r = await wrong('saxpy', 'shaders/playground/saxpy.starter.cu', (s) => s.replace('if (i < n)', 'if (i < n - 1)'));
    assert.equal(r.status, 'verification-failed');
    const v = r.result?.verification;
    assert.ok(v);
    assert.equal(v.mismatchCount, 1);
    assert.equal(v.neverWritten, 1, 'the element still holds the poison');
    assert.equal(v.maxRelativeError, null, 'no relative error for an element never written, and no sentinel for one');
    assert.equal(v.mismatches[0]?.index, (r.result?.size ?? 0) - 1);
    assert.equal(v.mismatches[0]?.got, null);
    assert.equal(v.mismatches[0]?.unwritten, true, 'the element was never written');
    assert.equal(r.result?.throughput, null, 'a wrong kernel is not timed');
  });

  it('a reduction without its barriers fails verification', async () => {
    const r = await wrong('reduction', 'shaders/playground/reduction.starter.cu', (s) => s.replaceAll('__syncthreads();', ''));
    assert.equal(r.status, 'verification-failed');
    assert.equal(r.result?.verification?.mismatches[0]?.index, 0);
    // The total is zeroed before the launch: whatever it holds was written, a NaN included.
    assert.equal(r.result?.verification?.neverWritten, 0);
    figure(`reduction race: got ${r.result?.verification?.mismatches[0]?.got}, expected ${r.result?.verification?.mismatches[0]?.expected}`);
  });

  it('a transpose that swaps rows for columns in the write fails with the first bad (row, col)', async () => {
    const r = await wrong('transpose', 'shaders/playground/transpose.starter.cu', (s) => s.replace('out[static_cast<size_t>(col) * rows + row]', 'out[static_cast<size_t>(row) * cols + col]'));
    assert.equal(r.status, 'verification-failed');
    const first = r.result?.verification?.mismatches[0];
    assert.ok(first && first.row !== null && first.col !== null);
    assert.equal(first.index, 1, 'out[0] = in[0] is right either way; out[1] is the first wrong element');
  });

  it('a syntax error comes back as NVRTC diagnostics with the line', async () => {
    const source = read('shaders/playground/saxpy.starter.cu').replace('out[i] = a * x[i] + y[i];', 'out[i] = a * x[i] + q;');
    const line = source.split('\n').findIndex((l) => l.includes('+ q;')) + 1;
    const r = await run({ exercise: 'saxpy', source });
    assert.equal(r.status, 'compile-error');
    const d = r.result?.compile.diagnostics[0];
    assert.ok(d, r.result?.compile.log);
    assert.equal(d.line, line);
    assert.equal(d.severity, 'error');
    assert.match(d.message, /"q"/);
    assert.equal(d.column, (source.split('\n')[line - 1] ?? '').indexOf('q;') + 1, 'the caret is under q');
    figure(`syntax error: ${r.result?.compile.log.split('\n').slice(0, 3).join(' | ')}`);
  });

  it('a kernel with the wrong signature is refused at its declaration', async () => {
    const source = read('shaders/playground/saxpy.starter.cu').replace('float a, size_t n', 'double a, size_t n');
    const r = await run({ exercise: 'saxpy', source });
    assert.equal(r.status, 'compile-error');
    assert.ok(r.result?.compile.diagnostics.some((d) => /signature/.test(d.message) && d.line === source.split('\n').findIndex((l) => l.includes('__global__')) + 1), r.result?.compile.log);
  });

  it('an out-of-bounds write fails the run with the CUDA error and only restarts the compute host', async () => {
    const restarts = host.supervisor.restarts;
    const r = await wrong('saxpy', 'shaders/playground/saxpy.starter.cu', (s) => s.replace('out[i] = a * x[i] + y[i];', 'out[i + (size_t(1) << 34)] = a * x[i] + y[i];'));
    assert.equal(r.status, 'failed');
    assert.ok(r.error && ['DEVICE_LOST', 'CUDA_ERROR'].includes(r.error.code), JSON.stringify(r.error));
    figure(`out-of-bounds write: ${r.error.code}: ${r.error.message}`);
    const next = await run({ exercise: 'saxpy', source: read('shaders/playground/saxpy.starter.cu'), compare: false });
    assert.equal(next.status, 'verified');
    assert.equal(host.supervisor.restarts, restarts + 1);
  });

  it('an endless loop is stopped by the watchdog, the run fails with TIMEOUT, the next run works', async () => {
    const started = performance.now();
    const r = await wrong('saxpy', 'shaders/playground/saxpy.starter.cu', (s) => s.replace('if (i < n)', 'for (const long long start = clock64(); clock64() >= start;) {\n  }\n  if (i < n)'));
    const took = performance.now() - started;
    assert.equal(r.status, 'failed');
    assert.equal(r.error?.code, 'TIMEOUT', JSON.stringify(r.error));
    figure(`endless loop: ${r.error?.message} (after ${took.toFixed(0)} ms)`);
    const next = await run({ exercise: 'saxpy', source: read('shaders/playground/saxpy.starter.cu'), compare: false });
    assert.equal(next.status, 'verified');
  });
});
