// A Python peer's measurement: the course's own code (NumPy, PyTorch, CuPy, Numba) on the same seeded inputs as the
// engine's, timed inside the worker (python-worker.ts) in rounds until the engine's rule stops it (sampling.ts),
// then its last output checked against the engine's float64 reference, exactly as the engine's own series are. The
// inputs and the output cross in files (peer-files.ts: in /dev/shm where there is one, memory, not disk), the inputs'
// kept for the peer points after that take the same ones, the output's removed afterwards.
import { readFile, rm } from 'node:fs/promises';

import { GpuLabError } from '../../common/errors.ts';
import type { Measurement, MeasurementResult, PointPhase, Verification } from '../../common/measurement.ts';
import { PEER_PREPARED, PEER_SAMPLES, ROW_STACK_RESTORED } from '../../common/peer-protocol.ts';
import type { PeerArray, PeerTimer } from '../../common/peer-protocol.ts';
import { DTYPE_BYTES } from '../../../native/index.ts';
import type { DType, ElementBuffer } from '../../../native/index.ts';
import { DEFAULT_BUDGET_SECONDS, TARGET_INTERVAL_FRACTION, sampleAdaptively } from '../sampling.ts';
import { MIN_BUDGET_SECONDS } from '../../common/statistics.ts';
import { cpuQuiet, cpuWorkDone } from '../cpu-quiet.ts';
import { ELEMENTWISE_TOLERANCE, elementwiseReads, gemmReads, gemmTolerance, verifyElementwise, verifyGemm } from '../verify.ts';
import { PeerWorker, currentPeerWorker, peerWorker } from '../python-worker.ts';
import { IDLE_MS, forgetInputs, inputFiles, keptPaths, outputFile, peerDtype } from '../peer-files.ts';
import type { PeerInput } from '../peer-files.ts';
import type { MeasurementBackend, MeasureContext } from './backend.ts';
import { unsupported } from './backend.ts';
import { vectorFunctionReference } from './vector-function.ts';
import { ELEMENTWISE_REFERENCE } from './elementwise.ts';

// A workload's answer is awaited at most this long: past it the worker is taken for hung, and stopped.
const CALL_TIMEOUT_MS = 120_000;

type Peered = Measurement & { peer: NonNullable<Measurement['peer']> };

// How long the last peer point's output, check and release took: the next point's samples leave that much of its
// budget for its own.
let lastTailSeconds = 0;

// The peer's output bytes as the typed array of the engine's buffer (a copy: the file's bytes need not be aligned).
function typedOf(dtype: DType, bytes: Uint8Array): Float64Array | Float32Array | Uint16Array | Int8Array {
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  if (dtype === 'fp64') return new Float64Array(copy.buffer);
  if (dtype === 'fp32') return new Float32Array(copy.buffer);
  if (dtype === 'int8') return new Int8Array(copy.buffer);
  return new Uint16Array(copy.buffer);
}

// The clock a peer is read with, from the measurement's: CUDA events, the host's clock after a synchronise, or the
// host's clock alone (the launch returning: the timing-pitfalls lab's mistake). A CPU workload has its own.
function timerOf(m: Peered, gpu: boolean): PeerTimer | undefined {
  if (!gpu) return undefined;
  if (m.clock === 'host-nosync') return 'host';
  if (m.clock === 'host') return m.peer.timeTime ? 'time-time' : 'host-sync';
  return 'events';
}

// What a peer measures, in the engine's terms: its inputs from the seed's streams (the engine's own twins of the same
// seed and slot hold the same values), its output, the numbers its code is given, and the engine's check.
interface PeerWork {
  inputs: PeerInput[];
  out: ElementBuffer;
  params: Record<string, number>;
  verify: () => Verification;
  // The output's elements the check reads, where it reads a sample: only those come back from the worker.
  reads: number[] | null;
}

function peerWork(m: Peered, backend: MeasurementBackend): PeerWork {
  // An input with the key of what fills it: the seed's stream, the type, the length and the range.
  const input = <D extends DType>(dtype: D, length: number, slot: number, range?: { low: number; high: number }): PeerInput & { buffer: ElementBuffer<D> } => ({
    key: `${m.seed + slot}:${dtype}:${length}:${range ? `${range.low},${range.high}` : ''}`,
    buffer: backend.input(dtype, length, slot, range, 'host'),
  });
  if (m.op === 'vector-function') {
    const xi = input('fp64', m.elements, 0);
    const yi = input('fp64', m.elements, 1);
    const [x, y] = [xi.buffer, yi.buffer];
    const out = backend.output('fp64', m.elements, 'host');
    return { inputs: [xi, yi], out, params: { a: m.a, b: m.b, c: m.c }, verify: () => verifyElementwise(out, [x, y], vectorFunctionReference(m.a, m.b, m.c), ELEMENTWISE_TOLERANCE.fp64), reads: elementwiseReads(m.elements) };
  }
  if (m.op === 'gemm') {
    // The dtype's storage and inputs as the engine's own GEMM makes them (ops/gemm.ts); int8 products come back as fp32.
    const stored: DType = m.dtype === 'tf32' ? 'fp32' : m.dtype;
    const range = stored === 'int8' ? undefined : { low: -1, high: 1 };
    const ai = input(stored, m.m * m.k, 0, range);
    const bi = input(stored, m.k * m.n, 1, range);
    const [a, b] = [ai.buffer, bi.buffer];
    const out = backend.output(stored === 'int8' ? 'fp32' : stored, m.m * m.n, 'host');
    return { inputs: [ai, bi], out, params: { m: m.m, n: m.n, k: m.k }, verify: () => verifyGemm(a, b, out, m.m, m.n, m.k, gemmTolerance(m.dtype, m.k)), reads: gemmReads(m.m, m.n) };
  }
  if (m.op === 'add' || m.op === 'mul' || m.op === 'exp') {
    const range = m.op === 'exp' ? { low: -4, high: 4 } : { low: -1, high: 1 };
    const inputs = [input('fp32', m.elements, 0, range)];
    if (m.op !== 'exp') inputs.push(input('fp32', m.elements, 1, range));
    const out = backend.output('fp32', m.elements, 'host');
    const buffers = inputs.map((i) => i.buffer);
    return { inputs, out, params: {}, verify: () => verifyElementwise(out, buffers, ELEMENTWISE_REFERENCE[m.op], ELEMENTWISE_TOLERANCE.fp32), reads: elementwiseReads(m.elements) };
  }
  if (m.op === 'copy') {
    const srci = input('int8', m.bytes, 0);
    const src = srci.buffer;
    const out = backend.output('int8', m.bytes, 'host');
    return { inputs: [srci], out, params: {}, verify: () => verifyElementwise(out, [src], ([v = Number.NaN]) => v, 0), reads: elementwiseReads(m.bytes) };
  }
  throw unsupported(`a Python ${m.peer.library} series of ${m.op}`, backend.device);
}

// Peer points in progress, and the timer that lets the kept input files go once none has come for IDLE_MS.
let inFlight = 0;
let idle: NodeJS.Timeout | null = null;

function whenIdle(): void {
  if (idle) clearTimeout(idle);
  idle = setTimeout(() => {
    idle = null;
    if (inFlight > 0) return;
    // Issued before any later point's calls: the worker lets go of the arrays before it reads new files.
    const worker = currentPeerWorker();
    if (worker?.alive) void worker.call({ op: 'release', keep: [] }, CALL_TIMEOUT_MS).catch(() => undefined);
    void forgetInputs().catch(() => undefined);
  }, IDLE_MS);
  idle.unref();
}

export async function measurePeer(m: Peered, backend: MeasurementBackend, ctx: MeasureContext): Promise<MeasurementResult> {
  inFlight++;
  if (idle) clearTimeout(idle);
  try {
    return await measured(m, backend, ctx);
  } finally {
    if (--inFlight === 0) whenIdle();
  }
}

async function measured(m: Peered, backend: MeasurementBackend, ctx: MeasureContext): Promise<MeasurementResult> {
  const started = performance.now();
  const onCpu = m.device === 'cpu';
  const work = peerWork(m, backend);
  await backend.settled();
  const phase = <T>(name: PointPhase, step: () => Promise<T> | T): Promise<T> => backend.phase(name, step);
  // A cold series is the first call of a worker of its own, as the notebook's first cell is the first call of its
  // kernel: the shared worker has run that code already.
  const worker = m.cold ? await PeerWorker.start() : await peerWorker();
  let outputPath: string | null = null;
  let prepared = false;
  let tailStarted: number | null = null;
  try {
    const inputs = await phase('inputs', () => inputFiles(work.inputs, work.out.length * DTYPE_BYTES[work.out.dtype]));
    outputPath = outputFile();
    const output: PeerArray = { path: outputPath, dtype: peerDtype(work.out.dtype), length: work.out.length };
    const timer = timerOf(m, m.device !== 'cpu');
    const request = { op: 'prepare', workload: m.op, code: m.peer.code, device: m.device, inputs, output, params: work.params, ...(timer ? { timer } : {}), minSampleMs: m.cold ? 0 : m.minSampleMs } as const;
    const answer = PEER_PREPARED.parse(await phase('prepare', () => worker.call(request, CALL_TIMEOUT_MS, ctx.signal)));
    prepared = true;
    if (onCpu) await phase('quiet', () => cpuQuiet('peer'));
    // The point's budget covers all of it, the inputs handed over and the worker's preparation before the samples, the
    // output and the worker's release after them (as long as the last point's took): a peer series takes no longer
    // than the engine's series it stands beside, whose budget is the same. The samples get what is left, never less
    // than the engine's floor (and never fewer than an interval's samples, as the engine's own).
    const setupSeconds = (performance.now() - started) / 1000 + lastTailSeconds;
    const budgetSeconds = Math.max(MIN_BUDGET_SECONDS, (m.budgetSeconds ?? DEFAULT_BUDGET_SECONDS) - setupSeconds);
    let executionsPerSample = 1;
    const round = async (warmup: number, count: number): Promise<{ samples: number[]; sampleWallMs: number[]; events: boolean }> => {
      const answer = PEER_SAMPLES.parse(await worker.call({ op: 'sample', warmup, count }, CALL_TIMEOUT_MS, ctx.signal));
      executionsPerSample = answer.executionsPerSample;
      return { samples: answer.samplesMs, sampleWallMs: answer.wallMs, events: answer.timer === 'events' };
    };
    const { rounds, sampling } = await phase('sampling', async () =>
      m.cold
        ? { rounds: [await round(0, m.repeats)], sampling: null }
        : await sampleAdaptively(({ first, samples }) => round(first ? m.warmup : 0, samples), {
            budgetSeconds,
            wholeBudgetSeconds: m.budgetSeconds ?? DEFAULT_BUDGET_SECONDS,
            plannedRuns: m.warmup + m.repeats,
            targetFraction: m.targetFraction,
            signal: ctx.signal,
            onProgress: (spent, budget) => ctx.onProgress(Math.round(spent), Math.round(budget)),
          }),
    );
    tailStarted = performance.now();
    const bytes = await phase('output', async () => {
      await worker.call({ op: 'output', ...(work.reads ? { indices: work.reads } : {}) }, CALL_TIMEOUT_MS, ctx.signal);
      return readFile(output.path);
    });
    const expected = (work.reads?.length ?? output.length) * DTYPE_BYTES[work.out.dtype];
    if (bytes.byteLength !== expected) throw new GpuLabError('PEER_FAILED', `the ${m.peer.code} series wrote ${bytes.byteLength} bytes, not ${expected}`);
    const values = typedOf(work.out.dtype, bytes);
    const out = work.out as ElementBuffer<DType>;
    // Only the elements the check reads came back: each in its place; the rest keeps the poison, unread.
    if (work.reads) work.reads.forEach((index, i) => out.write(values.subarray(i, i + 1) as never, index));
    else out.write(values as never);
    const samples = rounds.flatMap((r) => r.samples);
    // Events time the device; the host's wall time of each sample is kept beside them, as the engine keeps its own.
    const events = rounds.every((r) => r.events);
    const verification = await phase('check', work.verify);
    return {
      hostMs: events ? rounds.flatMap((r) => r.sampleWallMs) : samples,
      deviceMs: events ? samples : null,
      implementation: `${answer.library} (Python ${worker.version}${answer.restored?.length ? `; ${ROW_STACK_RESTORED}` : ''})`,
      threads: 1,
      executionsPerSample,
      verification,
      telemetry: null,
      // The budget in force for the whole point: the samples' and the setup it paid for first.
      sampling: { ...(sampling ? { ...sampling, budgetSeconds: sampling.budgetSeconds + setupSeconds } : { samples: samples.length, targetFraction: m.targetFraction ?? TARGET_INTERVAL_FRACTION, budgetSeconds: budgetSeconds + setupSeconds, stop: 'max-samples' as const }), phases: backend.phases },
    };
  } finally {
    if (onCpu) cpuWorkDone('peer');
    // The worker lets go of what the point made (and the GPU memory its library keeps cached) whatever happened, so
    // that the engine's next point has the memory its footprint check counted on, keeping only the input arrays of
    // the files kept for the peer points after it; a worker of its own is stopped.
    if (m.cold) worker.stop();
    else if (prepared && worker.alive) await worker.call({ op: 'release', keep: keptPaths() }, CALL_TIMEOUT_MS).catch(() => undefined);
    if (outputPath) await rm(outputPath, { force: true });
    if (tailStarted !== null) lastTailSeconds = (performance.now() - tailStarted) / 1000;
  }
}
