// A Python peer's measurement: the course's own code (NumPy, PyTorch, CuPy, Numba) on the same seeded inputs as the
// engine's, timed inside the worker (python-worker.ts) in rounds until the engine's rule stops it (sampling.ts),
// then its last output checked against the engine's float64 reference, exactly as the engine's own series are. The
// inputs and the output cross in files (in /dev/shm where there is one: memory, not disk), removed afterwards.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { GpuLabError } from '../../common/errors.ts';
import type { Measurement, MeasurementResult, Verification } from '../../common/measurement.ts';
import { PEER_PREPARED, PEER_SAMPLES } from '../../common/peer-protocol.ts';
import type { PeerArray } from '../../common/peer-protocol.ts';
import type { ElementBuffer } from '../../../native/index.ts';
import { DEFAULT_BUDGET_SECONDS, TARGET_INTERVAL_FRACTION, sampleAdaptively } from '../sampling.ts';
import { ELEMENTWISE_TOLERANCE, gemmTolerance, verifyElementwise, verifyGemm } from '../verify.ts';
import { peerWorker } from '../python-worker.ts';
import type { MeasurementBackend, MeasureContext } from './backend.ts';
import { unsupported } from './backend.ts';
import { vectorFunctionReference } from './vector-function.ts';

// A workload's answer is awaited at most this long: past it the worker is taken for hung, and stopped.
const CALL_TIMEOUT_MS = 120_000;

type Peered = Measurement & { peer: NonNullable<Measurement['peer']> };

async function shareDir(): Promise<string> {
  const base = existsSync('/dev/shm') ? '/dev/shm' : tmpdir();
  return mkdtemp(join(base, 'gpu-lab-peer-'));
}

async function exported(dir: string, name: string, b: ElementBuffer): Promise<PeerArray> {
  const path = join(dir, `${name}.bin`);
  const values = b.read() as Float32Array | Float64Array;
  await writeFile(path, new Uint8Array(values.buffer, values.byteOffset, values.byteLength));
  return { path, dtype: values instanceof Float64Array ? 'float64' : 'float32', length: values.length };
}

// What a peer measures, in the engine's terms: its inputs from the seed's streams (the engine's own twins of the same
// seed and slot hold the same values), its output, the numbers its code is given, and the engine's check.
interface PeerWork {
  inputs: ElementBuffer[];
  out: ElementBuffer;
  params: Record<string, number>;
  verify: () => Verification;
}

function peerWork(m: Peered, backend: MeasurementBackend): PeerWork {
  if (m.op === 'vector-function') {
    const x = backend.input('fp64', m.elements, 0, undefined, 'host');
    const y = backend.input('fp64', m.elements, 1, undefined, 'host');
    const out = backend.output('fp64', m.elements, 'host');
    return { inputs: [x, y], out, params: { a: m.a, b: m.b, c: m.c }, verify: () => verifyElementwise(out, [x, y], vectorFunctionReference(m.a, m.b, m.c), ELEMENTWISE_TOLERANCE.fp64) };
  }
  if (m.op === 'gemm' && m.dtype === 'fp32') {
    const a = backend.input('fp32', m.m * m.k, 0, { low: -1, high: 1 }, 'host');
    const b = backend.input('fp32', m.k * m.n, 1, { low: -1, high: 1 }, 'host');
    const out = backend.output('fp32', m.m * m.n, 'host');
    return { inputs: [a, b], out, params: { m: m.m, n: m.n, k: m.k }, verify: () => verifyGemm(a, b, out, m.m, m.n, m.k, gemmTolerance('fp32', m.k)) };
  }
  throw unsupported(`a Python ${m.peer.library} series of ${m.op}${m.op === 'gemm' ? ` in ${m.dtype}` : ''}`, backend.device);
}

export async function measurePeer(m: Peered, backend: MeasurementBackend, ctx: MeasureContext): Promise<MeasurementResult> {
  const work = peerWork(m, backend);
  await backend.settled();
  const worker = await peerWorker();
  const dir = await shareDir();
  try {
    const inputs = await Promise.all(work.inputs.map((b, i) => exported(dir, `in${i}`, b)));
    const fp64 = work.out.dtype === 'fp64';
    const output: PeerArray = { path: join(dir, 'out.bin'), dtype: fp64 ? 'float64' : 'float32', length: work.out.length };
    const prepared = PEER_PREPARED.parse(
      await worker.call({ op: 'prepare', workload: m.op, code: m.peer.code, device: m.device, inputs, output, params: work.params }, CALL_TIMEOUT_MS, ctx.signal),
    );
    const budgetSeconds = m.budgetSeconds ?? DEFAULT_BUDGET_SECONDS;
    const round = async (warmup: number, count: number): Promise<{ samples: number[]; sampleWallMs: number[]; events: boolean }> => {
      const answer = PEER_SAMPLES.parse(await worker.call({ op: 'sample', warmup, count }, CALL_TIMEOUT_MS, ctx.signal));
      return { samples: answer.samplesMs, sampleWallMs: answer.wallMs, events: answer.timer === 'events' };
    };
    const { rounds, sampling } = m.cold
      ? { rounds: [await round(0, m.repeats)], sampling: null }
      : await sampleAdaptively(({ first, samples }) => round(first ? m.warmup : 0, samples), {
          budgetSeconds,
          plannedRuns: m.warmup + m.repeats,
          signal: ctx.signal,
          onProgress: (spent, budget) => ctx.onProgress(Math.round(spent), Math.round(budget)),
        });
    await worker.call({ op: 'output' }, CALL_TIMEOUT_MS, ctx.signal);
    const bytes = await readFile(output.path);
    const expected = output.length * (fp64 ? 8 : 4);
    if (bytes.byteLength !== expected) throw new GpuLabError('PEER_FAILED', `the ${m.peer.code} series wrote ${bytes.byteLength} bytes, not ${expected}`);
    // Copied into a buffer of its own: the file's bytes need not be aligned for a typed array over them.
    const copy = new Uint8Array(expected);
    copy.set(bytes);
    work.out.write(fp64 ? new Float64Array(copy.buffer) : new Float32Array(copy.buffer));
    await worker.call({ op: 'release' }, CALL_TIMEOUT_MS);
    const samples = rounds.flatMap((r) => r.samples);
    // Events time the device; the host's wall time of each sample is kept beside them, as the engine keeps its own.
    const events = rounds.every((r) => r.events);
    return {
      hostMs: events ? rounds.flatMap((r) => r.sampleWallMs) : samples,
      deviceMs: events ? samples : null,
      implementation: `${prepared.library} (Python ${worker.version})`,
      threads: 1,
      executionsPerSample: 1,
      verification: work.verify(),
      telemetry: null,
      sampling: sampling ?? { samples: samples.length, targetFraction: TARGET_INTERVAL_FRACTION, budgetSeconds, stop: 'max-samples' },
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
