// A Python peer's measurement: the course's own code (NumPy, PyTorch, CuPy, Numba) on the same seeded inputs as the
// engine's, timed inside the worker (python-worker.ts) in rounds until the engine's rule stops it (sampling.ts),
// then its last output checked against the engine's float64 reference, exactly as the engine's own series are. The
// inputs and the output cross in files (peer-files.ts: in /dev/shm where there is one, memory, not disk), the inputs'
// kept for the peer points after that take the same ones, the output's removed afterwards.
import { readFile, rm } from 'node:fs/promises';

import { GpuLabError } from '../../common/errors.ts';
import type { Measurement, MeasurementResult, PointPhase, Verification } from '../../common/measurement.ts';
import { PEER_PREPARED, PEER_REFERENCE, PEER_SAMPLES, ROW_STACK_RESTORED } from '../../common/peer-protocol.ts';
import type { PeerArray, PeerClock, PeerSamples } from '../../common/peer-protocol.ts';
import { DTYPE_BYTES, createHostBuffer } from '../../../native/index.ts';
import type { DType, ElementBuffer } from '../../../native/index.ts';
import { DEFAULT_BUDGET_SECONDS, TARGET_INTERVAL_FRACTION, joinRounds, sampleAdaptively } from '../sampling.ts';
import type { RoundResult } from '../sampling.ts';
import { MIN_BUDGET_SECONDS } from '../../common/pure/statistics.ts';
import { cpuQuiet, cpuWorkDone } from '../cpu-quiet.ts';
import { ELEMENTWISE_TOLERANCE, elementwiseReads, gemmReads, gemmTolerance, verifyElementwise, verifyGemm } from '../verify.ts';
import type { ElementsRead } from '../verify.ts';
import { PeerWorker, currentPeerWorker, peerWorker } from '../python-worker.ts';
import { IDLE_MS, forgetInputs, inputFiles, keptPaths, outputFile } from '../peer-files.ts';
import type { PeerInput } from '../peer-files.ts';
import type { MeasurementBackend, MeasureContext } from './backend.ts';
import { unsupported } from './backend.ts';
import { vectorFunctionReference } from './vector-function.ts';
import { ELEMENTWISE_REFERENCE } from './elementwise.ts';
import { textToImageBuffer, textToImageOutput, textToImageParams, verifyAgainstReference } from './text-to-image.ts';

// A workload's answer is awaited at most this long: past it the worker is taken for hung, and stopped. A network's
// (the text-to-image lab) may build 860 M parameters, or run a float64 pass of them on a laptop's CPU, in one answer.
const CALL_TIMEOUT_MS = 120_000;
const NETWORK_CALL_TIMEOUT_MS = 900_000;

type Peered = Measurement & { peer: NonNullable<Measurement['peer']> };

// How long the last peer point's output, check and release took: the next point's samples leave that much of its
// budget for its own.
let lastTailSeconds = 0;

// The worker's float64 reference of part of the output, read from a file at `path`, and the output checked against it.
async function checkAgainstReference(worker: PeerWorker, reference: NonNullable<PeerWork['reference']>, path: string, timeoutMs: number, signal: AbortSignal): Promise<Verification> {
  const { offset } = PEER_REFERENCE.parse(await worker.call({ call: 'reference', output: { path, dtype: 'fp64', length: reference.length } }, timeoutMs, signal));
  const bytes = await readFile(path);
  if (bytes.byteLength !== reference.length * 8) throw new GpuLabError('PEER_FAILED', `the reference has ${bytes.byteLength} bytes, not ${reference.length * 8}`);
  return reference.check(typedOf('fp64', bytes) as Float64Array, offset);
}

// The peer's output bytes as the typed array of the engine's buffer (a copy: the file's bytes need not be aligned).
function typedOf(dtype: DType, bytes: Uint8Array): Float64Array | Float32Array | Uint16Array | Int8Array {
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  if (dtype === 'fp64') return new Float64Array(copy.buffer);
  if (dtype === 'fp32') return new Float32Array(copy.buffer);
  if (dtype === 'int8') return new Int8Array(copy.buffer);
  return new Uint16Array(copy.buffer);
}

// The clock a peer is read with: the measurement's, or for its host clock read as the notebooks read it, Python's
// time.time(). A CPU workload has its own (the host's).
function clockOf(m: Peered, gpu: boolean): PeerClock | undefined {
  if (!gpu) return undefined;
  return m.clock === 'host' && m.peer.timeTime ? 'time-time' : m.clock;
}

// One round of a peer's samples as the stopping rule reads it. The worker gives each sample's times per call (a
// sample of batched calls is their mean, as the engine's harness gives it); the rule budgets a sample by its whole
// wall time, all its calls together, as the engine's backend does (backend.ts): read per call, a batch of a hundred
// 50-µs calls looked like 50 µs, not 5 ms, and the rounds ran past the budget by the batch's factor.
// One round of a peer's samples as the stopping rule judges them, on their clock: CUDA events time the device, the
// host's wall time of each kept beside them as the engine keeps its own; any other clock is the host's (time.time()
// too). The budget counts every call of a batched sample (the worker answers each sample's wall time per call).
export interface PeerRound extends RoundResult {
  hostMs: number[];
  executionsPerSample: number;
}

export function peerRound(answer: PeerSamples): PeerRound {
  const sampleWallMs = answer.wallMs.map((ms) => ms * answer.executionsPerSample);
  const { executionsPerSample } = answer;
  if (answer.clock === 'events') return { clock: 'events', hostMs: answer.wallMs, deviceMs: answer.samplesMs, sampleWallMs, executionsPerSample };
  return { clock: answer.clock === 'time-time' ? 'host' : answer.clock, hostMs: answer.samplesMs, deviceMs: null, sampleWallMs, executionsPerSample };
}

// What a peer measures, in the engine's terms: its inputs from the seed's streams (the engine's own twins of the same
// seed and slot hold the same values), its output, the numbers its code is given, and the engine's check of the
// output on the inputs' buffers (kept from an earlier peer point where one took the same: peer-files.ts).
// The output is not poisoned: the check reads only what the worker's file holds, whose length is checked, and a
// gigabyte poisoned for 4096 elements read cost a tenth of a second a point.
interface PeerWork {
  inputs: PeerInput[];
  out: ElementBuffer;
  params: Record<string, number>;
  // The engine's check of the output on the inputs' buffers; or, where the engine has no reference of its own (a
  // network), the check against the worker's float64 reference of part of the output (`reference`, of `length`
  // values).
  verify: (inputs: ElementBuffer[], out: ElementsRead) => Verification;
  reference?: { length: number; check: (values: Float64Array, offset: number) => Verification };
  // The output's elements the check reads, where it reads a sample: only those come back from the worker.
  reads: number[] | null;
}

function peerWork(m: Peered, backend: MeasurementBackend): PeerWork {
  // An input with the key of what fills it: the seed's stream, the type, the length and the range; made, where no
  // peer point before kept it, as MeasurementBackend.input makes the engine's (the one seeding rule).
  const input = (dtype: DType, length: number, slot: number, range?: { low: number; high: number }): PeerInput => ({
    key: `${m.seed + slot}:${dtype}:${length}:${range ? `${range.low},${range.high}` : ''}`,
    make: () => createHostBuffer(dtype, length).fillRandomAsync(m.seed + slot, range),
  });
  const output = (dtype: DType, length: number): ElementBuffer => backend.buffer(dtype, length, 'host');
  if (m.op === 'text-to-image') {
    const out = textToImageBuffer(m, backend);
    const checked = textToImageOutput(m).checked;
    const unchecked = (): Verification => {
      throw new GpuLabError('PEER_FAILED', 'the text-to-image workload is checked against its float64 reference');
    };
    const check = (values: Float64Array, offset: number): Verification => verifyAgainstReference(out.read() as Float32Array, values, offset, m.dtype);
    return { inputs: [], out, params: textToImageParams(m), verify: unchecked, reference: { length: checked, check }, reads: null };
  }
  if (m.op === 'vector-function') {
    const out = output('fp64', m.elements);
    return { inputs: [input('fp64', m.elements, 0), input('fp64', m.elements, 1)], out, params: { a: m.a, b: m.b, c: m.c }, verify: (xy, got) => verifyElementwise(got, xy, vectorFunctionReference(m.a, m.b, m.c), ELEMENTWISE_TOLERANCE.fp64), reads: elementwiseReads(m.elements) };
  }
  if (m.op === 'gemm') {
    // The dtype's storage and inputs as the engine's own GEMM makes them (ops/gemm.ts); int8 products come back as fp32.
    const stored: DType = m.dtype === 'tf32' ? 'fp32' : m.dtype;
    const range = stored === 'int8' ? undefined : { low: -1, high: 1 };
    const out = output(stored === 'int8' ? 'fp32' : stored, m.m * m.n);
    const verify = ([a, b]: ElementBuffer[], got: ElementsRead): Verification => {
      if (!a || !b) throw new GpuLabError('PEER_FAILED', 'the GEMM\'s inputs were not made');
      return verifyGemm(a, b, got, m.m, m.n, m.k, gemmTolerance(m.dtype, m.k));
    };
    return { inputs: [input(stored, m.m * m.k, 0, range), input(stored, m.k * m.n, 1, range)], out, params: { m: m.m, n: m.n, k: m.k }, verify, reads: gemmReads(m.m, m.n) };
  }
  if (m.op === 'add' || m.op === 'mul' || m.op === 'exp') {
    const op = m.op;
    const range = op === 'exp' ? { low: -4, high: 4 } : { low: -1, high: 1 };
    const inputs = [input('fp32', m.elements, 0, range)];
    if (op !== 'exp') inputs.push(input('fp32', m.elements, 1, range));
    const out = output('fp32', m.elements);
    return { inputs, out, params: {}, verify: (buffers, got) => verifyElementwise(got, buffers, ELEMENTWISE_REFERENCE[op], ELEMENTWISE_TOLERANCE.fp32), reads: elementwiseReads(m.elements) };
  }
  if (m.op === 'copy') {
    const out = output('int8', m.bytes);
    return { inputs: [input('int8', m.bytes, 0)], out, params: {}, verify: (src, got) => verifyElementwise(got, src, ([v = Number.NaN]) => v, 0), reads: elementwiseReads(m.bytes) };
  }
  throw unsupported(`a Python ${m.peer.library} series of ${m.op}`, backend.device);
}

// The output as the check reads it where only the elements at `reads` came back (`values`, in their order): those
// elements, decoded as the engine's buffer decodes its type, and no other (a read of one is NaN). Written into the
// output's buffer instead, 4096 elements scattered over a gigabyte took 4096 calls into the addon, each touching a
// page for the first time, outside every phase: 120 to 175 ms for 10⁸ float32 on the 2-core machine (on the GPU
// machine the peers' points spent some 10 ms outside their phases where the engine's spent 4).
export function sampledOutput(out: ElementBuffer, reads: readonly number[], values: Float64Array | Float32Array | Uint16Array | Int8Array): ElementsRead {
  const picked = createHostBuffer(out.dtype, Math.max(1, reads.length));
  let decoded: Float64Array;
  try {
    (picked as ElementBuffer<DType>).write(values as never);
    decoded = picked.toFloat64(0, reads.length);
  } finally {
    picked.free();
  }
  const order = reads.map((_, i) => i).sort((x, y) => (reads[x] ?? 0) - (reads[y] ?? 0));
  const at = order.map((i) => reads[i] ?? 0);
  return {
    length: out.length,
    location: 'host',
    toFloat64(start = 0, count = out.length - start) {
      const span = new Float64Array(count).fill(Number.NaN);
      // The first sampled index from `start` on, then each one until the span's end.
      let lo = 0;
      let hi = at.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if ((at[mid] ?? 0) < start) lo = mid + 1;
        else hi = mid;
      }
      for (let j = lo; j < at.length && (at[j] ?? 0) < start + count; j++) span[(at[j] ?? 0) - start] = decoded[order[j] ?? 0] ?? Number.NaN;
      return span;
    },
  };
}

// Peer points in progress, and the timer that lets the kept input files go once none has come for IDLE_MS (a peer
// measured outside a run; a run's end lets them go at once: peerRunEnded).
let inFlight = 0;
let idle: NodeJS.Timeout | null = null;

function letInputsGo(): void {
  if (idle) clearTimeout(idle);
  idle = null;
  if (inFlight > 0) return;
  // Issued before any later point's calls: the worker lets go of the arrays before it reads new files.
  const worker = currentPeerWorker();
  if (worker?.alive) void worker.call({ call: 'release', keep: [] }, CALL_TIMEOUT_MS).catch(() => undefined);
  void forgetInputs().catch(() => undefined);
}

function whenIdle(): void {
  if (idle) clearTimeout(idle);
  idle = setTimeout(letInputsGo, IDLE_MS);
  idle.unref();
}

// A run ended: the input files kept for its next peer point, and the worker's arrays read from them, go now, unless
// a peer point of another run is measuring.
export function peerRunEnded(): void {
  letInputsGo();
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
  let referencePath: string | null = null;
  let doneWithInputs: (() => void) | null = null;
  let prepared = false;
  let tailStarted: number | null = null;
  try {
    const files = await phase('inputs', () => inputFiles(work.inputs, work.out.length * DTYPE_BYTES[work.out.dtype]));
    doneWithInputs = files.done;
    const inputs = files.arrays;
    outputPath = outputFile();
    const output: PeerArray = { path: outputPath, dtype: work.out.dtype, length: work.out.length };
    const clock = clockOf(m, m.device !== 'cpu');
    const callMs = m.op === 'text-to-image' ? NETWORK_CALL_TIMEOUT_MS : CALL_TIMEOUT_MS;
    const request = { call: 'prepare', op: m.op, code: m.peer.code, device: m.device, inputs, output, params: work.params, ...(clock ? { clock } : {}), minSampleMs: m.cold ? 0 : m.minSampleMs } as const;
    const answer = PEER_PREPARED.parse(await phase('prepare', () => worker.call(request, callMs, ctx.signal)));
    prepared = true;
    if (onCpu) await phase('quiet', () => cpuQuiet('peer'));
    // The point's budget covers all of it, the inputs handed over and the worker's preparation before the samples, the
    // output and the worker's release after them (as long as the last point's took): a peer series takes no longer
    // than the engine's series it stands beside, whose budget is the same. The samples get what is left, never less
    // than the engine's floor (and never fewer than an interval's samples, as the engine's own).
    const setupSeconds = (performance.now() - started) / 1000 + lastTailSeconds;
    const budgetSeconds = Math.max(MIN_BUDGET_SECONDS, (m.budgetSeconds ?? DEFAULT_BUDGET_SECONDS) - setupSeconds);
    let executionsPerSample = 1;
    let memoryBytes: number | undefined;
    const round = async (warmup: number, count: number): Promise<PeerRound> => {
      const sampled = PEER_SAMPLES.parse(await worker.call({ call: 'sample', warmup, count }, callMs, ctx.signal));
      if (sampled.memoryBytes !== undefined) memoryBytes = Math.max(memoryBytes ?? 0, sampled.memoryBytes);
      const answer = peerRound(sampled);
      executionsPerSample = answer.executionsPerSample;
      return answer;
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
      await worker.call({ call: 'output', ...(work.reads ? { indices: work.reads } : {}) }, callMs, ctx.signal);
      return readFile(output.path);
    });
    const expected = (work.reads?.length ?? output.length) * DTYPE_BYTES[work.out.dtype];
    if (bytes.byteLength !== expected) throw new GpuLabError('PEER_FAILED', `the ${m.peer.code} series wrote ${bytes.byteLength} bytes, not ${expected}`);
    const values = typedOf(work.out.dtype, bytes);
    const got = work.reads ? sampledOutput(work.out, work.reads, values) : (work.out as ElementBuffer<DType>).write(values as never);
    const timed = joinRounds(rounds);
    const { reference } = work;
    if (reference) referencePath = outputFile();
    const verification = await phase('check', () => (reference && referencePath ? checkAgainstReference(worker, reference, referencePath, callMs, ctx.signal) : work.verify(files.buffers, got)));
    return {
      ...timed,
      implementation: `${answer.library} (Python ${worker.version}${answer.restored?.length ? `; ${ROW_STACK_RESTORED}` : ''})`,
      threads: 1,
      executionsPerSample,
      verification,
      telemetry: null,
      // The budget in force for the whole point: the samples' and the setup it paid for first.
      sampling: { ...(sampling ? { ...sampling, budgetSeconds: sampling.budgetSeconds + setupSeconds } : { samples: timed.hostMs.length, targetFraction: m.targetFraction ?? TARGET_INTERVAL_FRACTION, budgetSeconds: budgetSeconds + setupSeconds, stop: 'max-samples' as const }), phases: backend.phases },
      ...(memoryBytes !== undefined ? { memory: { bytes: memoryBytes, where: onCpu ? ('host' as const) : ('device' as const) } } : {}),
    };
  } finally {
    if (onCpu) cpuWorkDone('peer');
    // The worker lets go of what the point made (and the GPU memory its library keeps cached) whatever happened, so
    // that the engine's next point has the memory its footprint check counted on, keeping only the input arrays of
    // the files kept for the peer points after it; a worker of its own is stopped.
    await phase('release', async () => {
      if (m.cold) worker.stop();
      else if (prepared && worker.alive) await worker.call({ call: 'release', keep: keptPaths() }, m.op === 'text-to-image' ? NETWORK_CALL_TIMEOUT_MS : CALL_TIMEOUT_MS).catch(() => undefined);
      if (outputPath) await rm(outputPath, { force: true });
      if (referencePath) await rm(referencePath, { force: true });
    });
    doneWithInputs?.();
    if (tailStarted !== null) lastTailSeconds = (performance.now() - tailStarted) / 1000;
  }
}
