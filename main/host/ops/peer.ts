// A Python peer's measurement: the course's own code (NumPy, PyTorch, CuPy, Numba) on the same seeded inputs as the
// engine's, timed inside the worker (python-worker.ts) in rounds until the engine's rule stops it (sampling.ts),
// then its last output checked against the engine's float64 reference, exactly as the engine's own series are. The
// inputs and the output cross in files (in /dev/shm where there is one: memory, not disk), removed afterwards.
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import { GpuLabError } from '../../common/errors.ts';
import type { Measurement, MeasurementResult, Verification } from '../../common/measurement.ts';
import { PEER_PREPARED, PEER_REFERENCE, PEER_SAMPLES, ROW_STACK_RESTORED } from '../../common/peer-protocol.ts';
import type { PeerArray, PeerTimer } from '../../common/peer-protocol.ts';
import { DTYPE_BYTES } from '../../../native/index.ts';
import type { DType, ElementBuffer } from '../../../native/index.ts';
import { DEFAULT_BUDGET_SECONDS, TARGET_INTERVAL_FRACTION, sampleAdaptively } from '../sampling.ts';
import { ELEMENTWISE_TOLERANCE, gemmTolerance, verifyElementwise, verifyGemm } from '../verify.ts';
import { PeerWorker, peerWorker } from '../python-worker.ts';
import { shareDir } from '../share-dir.ts';
import type { MeasurementBackend, MeasureContext } from './backend.ts';
import { unsupported } from './backend.ts';
import { vectorFunctionReference } from './vector-function.ts';
import { ELEMENTWISE_REFERENCE } from './elementwise.ts';
import { textToImageBuffer, textToImageOutput, textToImageParams, verifyAgainstReference } from './text-to-image.ts';

// A workload's answer is awaited at most this long: past it the worker is taken for hung, and stopped. A network's
// (the text-to-image lab) may build 860 M parameters, or run a float64 pass of them on a laptop's CPU, in one answer.
const CALL_TIMEOUT_MS = 120_000;
const NETWORK_CALL_TIMEOUT_MS = 900_000;

// The worker's float64 reference of part of the output, read from a file, and the output checked against it.
async function checkAgainstReference(worker: PeerWorker, reference: NonNullable<PeerWork['reference']>, dir: string, timeoutMs: number, signal: AbortSignal): Promise<Verification> {
  const path = join(dir, 'reference.bin');
  const { offset } = PEER_REFERENCE.parse(await worker.call({ op: 'reference', output: { path, dtype: 'float64', length: reference.length } }, timeoutMs, signal));
  const bytes = await readFile(path);
  if (bytes.byteLength !== reference.length * 8) throw new GpuLabError('PEER_FAILED', `the reference has ${bytes.byteLength} bytes, not ${reference.length * 8}`);
  return reference.check(typedOf('fp64', bytes) as Float64Array, offset);
}

type Peered = Measurement & { peer: NonNullable<Measurement['peer']> };

const PEER_DTYPE: Record<DType, PeerArray['dtype']> = { fp64: 'float64', fp32: 'float32', fp16: 'float16', bf16: 'bfloat16', int8: 'int8' };

async function exported(dir: string, name: string, b: ElementBuffer): Promise<PeerArray> {
  const path = join(dir, `${name}.bin`);
  const values = b.read();
  await writeFile(path, new Uint8Array(values.buffer, values.byteOffset, values.byteLength));
  return { path, dtype: PEER_DTYPE[b.dtype], length: values.length };
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
  inputs: ElementBuffer[];
  out: ElementBuffer;
  params: Record<string, number>;
  // The engine's check; or, where the engine has no reference of its own (a network), the check against the worker's
  // float64 reference of part of the output (`reference`, of `length` values).
  verify: () => Verification;
  reference?: { length: number; check: (values: Float64Array, offset: number) => Verification };
}

function peerWork(m: Peered, backend: MeasurementBackend): PeerWork {
  if (m.op === 'text-to-image') {
    const out = textToImageBuffer(m, backend);
    const checked = textToImageOutput(m).checked;
    const unchecked = (): Verification => {
      throw new GpuLabError('PEER_FAILED', 'the text-to-image workload is checked against its float64 reference');
    };
    const check = (values: Float64Array, offset: number): Verification => verifyAgainstReference(out.read() as Float32Array, values, offset, m.dtype);
    return { inputs: [], out, params: textToImageParams(m), verify: unchecked, reference: { length: checked, check } };
  }
  if (m.op === 'vector-function') {
    const x = backend.input('fp64', m.elements, 0, undefined, 'host');
    const y = backend.input('fp64', m.elements, 1, undefined, 'host');
    const out = backend.output('fp64', m.elements, 'host');
    return { inputs: [x, y], out, params: { a: m.a, b: m.b, c: m.c }, verify: () => verifyElementwise(out, [x, y], vectorFunctionReference(m.a, m.b, m.c), ELEMENTWISE_TOLERANCE.fp64) };
  }
  if (m.op === 'gemm') {
    // The dtype's storage and inputs as the engine's own GEMM makes them (ops/gemm.ts); int8 products come back as fp32.
    const stored: DType = m.dtype === 'tf32' ? 'fp32' : m.dtype;
    const range = stored === 'int8' ? undefined : { low: -1, high: 1 };
    const a = backend.input(stored, m.m * m.k, 0, range, 'host');
    const b = backend.input(stored, m.k * m.n, 1, range, 'host');
    const out = backend.output(stored === 'int8' ? 'fp32' : stored, m.m * m.n, 'host');
    return { inputs: [a, b], out, params: { m: m.m, n: m.n, k: m.k }, verify: () => verifyGemm(a, b, out, m.m, m.n, m.k, gemmTolerance(m.dtype, m.k)) };
  }
  if (m.op === 'add' || m.op === 'mul' || m.op === 'exp') {
    const range = m.op === 'exp' ? { low: -4, high: 4 } : { low: -1, high: 1 };
    const inputs = [backend.input('fp32', m.elements, 0, range, 'host')];
    if (m.op !== 'exp') inputs.push(backend.input('fp32', m.elements, 1, range, 'host'));
    const out = backend.output('fp32', m.elements, 'host');
    return { inputs, out, params: {}, verify: () => verifyElementwise(out, inputs, ELEMENTWISE_REFERENCE[m.op], ELEMENTWISE_TOLERANCE.fp32) };
  }
  if (m.op === 'copy') {
    const src = backend.input('int8', m.bytes, 0, undefined, 'host');
    const out = backend.output('int8', m.bytes, 'host');
    return { inputs: [src], out, params: {}, verify: () => verifyElementwise(out, [src], ([v = Number.NaN]) => v, 0) };
  }
  throw unsupported(`a Python ${m.peer.library} series of ${m.op}`, backend.device);
}

export async function measurePeer(m: Peered, backend: MeasurementBackend, ctx: MeasureContext): Promise<MeasurementResult> {
  const work = peerWork(m, backend);
  await backend.settled();
  // A cold series is the first call of a worker of its own, as the notebook's first cell is the first call of its
  // kernel: the shared worker has run that code already.
  const worker = m.cold ? await PeerWorker.start() : await peerWorker();
  let dir: string | null = null;
  let prepared = false;
  try {
    const shared = await shareDir([...work.inputs, work.out].reduce((sum, b) => sum + b.length * DTYPE_BYTES[b.dtype], 0));
    dir = shared;
    const inputs = await Promise.all(work.inputs.map((b, i) => exported(shared, `in${i}`, b)));
    const output: PeerArray = { path: join(shared, 'out.bin'), dtype: PEER_DTYPE[work.out.dtype], length: work.out.length };
    const timer = timerOf(m, m.device !== 'cpu');
    const callMs = m.op === 'text-to-image' ? NETWORK_CALL_TIMEOUT_MS : CALL_TIMEOUT_MS;
    const request = { op: 'prepare', workload: m.op, code: m.peer.code, device: m.device, inputs, output, params: work.params, ...(timer ? { timer } : {}), minSampleMs: m.cold ? 0 : m.minSampleMs } as const;
    const answer = PEER_PREPARED.parse(await worker.call(request, callMs, ctx.signal));
    prepared = true;
    const budgetSeconds = m.budgetSeconds ?? DEFAULT_BUDGET_SECONDS;
    let executionsPerSample = 1;
    let memoryBytes: number | undefined;
    const round = async (warmup: number, count: number): Promise<{ samples: number[]; sampleWallMs: number[]; events: boolean }> => {
      const answer = PEER_SAMPLES.parse(await worker.call({ op: 'sample', warmup, count }, callMs, ctx.signal));
      executionsPerSample = answer.executionsPerSample;
      if (answer.memoryBytes !== undefined) memoryBytes = Math.max(memoryBytes ?? 0, answer.memoryBytes);
      return { samples: answer.samplesMs, sampleWallMs: answer.wallMs, events: answer.timer === 'events' };
    };
    const { rounds, sampling } = m.cold
      ? { rounds: [await round(0, m.repeats)], sampling: null }
      : await sampleAdaptively(({ first, samples }) => round(first ? m.warmup : 0, samples), {
          budgetSeconds,
          plannedRuns: m.warmup + m.repeats,
          targetFraction: m.targetFraction,
          signal: ctx.signal,
          onProgress: (spent, budget) => ctx.onProgress(Math.round(spent), Math.round(budget)),
        });
    await worker.call({ op: 'output' }, callMs, ctx.signal);
    const bytes = await readFile(output.path);
    const expected = output.length * DTYPE_BYTES[work.out.dtype];
    if (bytes.byteLength !== expected) throw new GpuLabError('PEER_FAILED', `the ${m.peer.code} series wrote ${bytes.byteLength} bytes, not ${expected}`);
    (work.out as ElementBuffer<DType>).write(typedOf(work.out.dtype, bytes) as never);
    const verification = work.reference ? await checkAgainstReference(worker, work.reference, shared, callMs, ctx.signal) : work.verify();
    const samples = rounds.flatMap((r) => r.samples);
    // Events time the device; the host's wall time of each sample is kept beside them, as the engine keeps its own.
    const events = rounds.every((r) => r.events);
    return {
      hostMs: events ? rounds.flatMap((r) => r.sampleWallMs) : samples,
      deviceMs: events ? samples : null,
      implementation: `${answer.library} (Python ${worker.version}${answer.restored?.length ? `; ${ROW_STACK_RESTORED}` : ''})`,
      threads: 1,
      executionsPerSample,
      verification,
      telemetry: null,
      sampling: sampling ?? { samples: samples.length, targetFraction: m.targetFraction ?? TARGET_INTERVAL_FRACTION, budgetSeconds, stop: 'max-samples' },
      ...(memoryBytes !== undefined ? { memory: { bytes: memoryBytes, where: m.device === 'cpu' ? ('host' as const) : ('device' as const) } } : {}),
    };
  } finally {
    // The worker lets go of the arrays (and the GPU memory its library keeps cached) whatever happened, so that the
    // engine's next point has the memory its footprint check counted on; a worker of its own is stopped.
    if (m.cold) worker.stop();
    else if (prepared && worker.alive) await worker.call({ op: 'release' }, m.op === 'text-to-image' ? NETWORK_CALL_TIMEOUT_MS : CALL_TIMEOUT_MS).catch(() => undefined);
    if (dir) await rm(dir, { recursive: true, force: true });
  }
}
