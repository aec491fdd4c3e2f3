// A Python peer's measurement: the course's own code (NumPy, PyTorch, CuPy, Numba) on the same seeded inputs as the
// engine's, timed inside the worker (python-worker.ts) in rounds until the engine's rule stops it (sampling.ts),
// then its last output checked against the engine's float64 reference, exactly as the engine's own series are. The
// inputs and the output cross in files (in /dev/shm where there is one: memory, not disk), removed afterwards.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { GpuLabError } from '../../common/errors.ts';
import type { Measurement, MeasurementResult } from '../../common/measurement.ts';
import { PEER_PREPARED, PEER_SAMPLES } from '../../common/peer-protocol.ts';
import type { PeerArray } from '../../common/peer-protocol.ts';
import type { ElementBuffer } from '../../../native/index.ts';
import { DEFAULT_BUDGET_SECONDS, TARGET_INTERVAL_FRACTION, sampleAdaptively } from '../sampling.ts';
import { ELEMENTWISE_TOLERANCE, verifyElementwise } from '../verify.ts';
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

async function exported(dir: string, name: string, b: ElementBuffer<'fp64'>): Promise<PeerArray> {
  const path = join(dir, `${name}.f64`);
  const values = b.read() as Float64Array;
  await writeFile(path, new Uint8Array(values.buffer, values.byteOffset, values.byteLength));
  return { path, dtype: 'float64', length: values.length };
}

export async function measurePeer(m: Peered, backend: MeasurementBackend, ctx: MeasureContext): Promise<MeasurementResult> {
  if (m.op !== 'vector-function') throw unsupported(`a Python ${m.peer.library} series of ${m.op}`, backend.device);
  if (backend.kind !== 'cpu') throw unsupported(`the ${m.peer.code} series on a GPU`, backend.device);
  const x = backend.input('fp64', m.elements, 0);
  const y = backend.input('fp64', m.elements, 1);
  const out = backend.output('fp64', m.elements);
  await backend.settled();
  const worker = await peerWorker();
  const dir = await shareDir();
  try {
    const inputs = [await exported(dir, 'x', x), await exported(dir, 'y', y)];
    const output: PeerArray = { path: join(dir, 'out.f64'), dtype: 'float64', length: m.elements };
    const prepared = PEER_PREPARED.parse(
      await worker.call({ op: 'prepare', workload: m.op, code: m.peer.code, device: m.device, inputs, output, params: { a: m.a, b: m.b, c: m.c } }, CALL_TIMEOUT_MS, ctx.signal),
    );
    const budgetSeconds = m.budgetSeconds ?? DEFAULT_BUDGET_SECONDS;
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
    if (bytes.byteLength !== m.elements * 8) throw new GpuLabError('PEER_FAILED', `the ${m.peer.code} series wrote ${bytes.byteLength} bytes, not ${m.elements * 8}`);
    out.write(new Float64Array(bytes.buffer, bytes.byteOffset, m.elements));
    await worker.call({ op: 'release' }, CALL_TIMEOUT_MS);
    const hostMs = rounds.flatMap((r) => r.samples);
    return {
      hostMs,
      deviceMs: null,
      implementation: `${prepared.library} (Python ${worker.version})`,
      threads: 1,
      executionsPerSample: 1,
      verification: verifyElementwise(out, [x, y], vectorFunctionReference(m.a, m.b, m.c), ELEMENTWISE_TOLERANCE.fp64),
      telemetry: null,
      sampling: sampling ?? { samples: hostMs.length, targetFraction: TARGET_INTERVAL_FRACTION, budgetSeconds, stop: 'max-samples' },
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }

  async function round(warmup: number, count: number): Promise<{ samples: number[]; sampleWallMs: number[] }> {
    const answer = PEER_SAMPLES.parse(await worker.call({ op: 'sample', warmup, count }, CALL_TIMEOUT_MS, ctx.signal));
    return { samples: answer.samplesMs, sampleWallMs: answer.samplesMs };
  }
}
