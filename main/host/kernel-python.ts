// Unit 10's launch path (python/gpu_lab_peers/kernel_launch.py): once GPU Lab's own launch of the student's kernel is
// compiled by NVRTC, verified and timed, the same source is launched again from Python as the course launches its
// kernels — PyCUDA where it imports, else NVIDIA's cuda.core — on the same inputs (written to files, as a peer's
// are). Its output is poisoned, launched on once and checked by the very check the engine's launch passed, then its
// launches are timed with CUDA events in the same rounds (launch-rounds.ts). The source is the job's, which the
// playground's door checked; the request names no compiler option and no include folder (the worker's options are
// its own). No library to launch with is a comparison without a figure that says what to install; a launch that
// fails or is wrong, one that says so.
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import { GpuLabError } from '../common/errors.ts';
import type { KernelJob } from '../common/kernel-job.ts';
import { msg } from '../common/pure/message.ts';
import { PEER_KERNEL_PREPARED, PEER_SAMPLES } from '../common/peer-protocol.ts';
import type { PeerKernelArg } from '../common/peer-protocol.ts';
import type { Comparison, Throughput } from '../common/playground.ts';
import type { HostArg, HostProblem } from './kernel-problems.ts';
import { launchRounds } from './launch-rounds.ts';
import { shareDir } from './share-dir.ts';
import { peerWorker } from './python-worker.ts';
import type { PeerWorker } from './python-worker.ts';

// Compiling with nvcc and loading a library's CUDA context can take tens of seconds on a cold machine.
const CALL_TIMEOUT_MS = 120_000;

interface OutputFile {
  path: string;
  dtype: 'fp32' | 'fp64';
  length: number;
}

// The arguments as the worker takes them, the inputs written to files in `dir`.
async function exportArgs(dir: string, args: readonly HostArg[]): Promise<{ args: PeerKernelArg[]; output: OutputFile }> {
  const out = args.find((a) => a.kind === 'output');
  if (out?.kind !== 'output') throw new GpuLabError('INVALID_ARGUMENT', 'a kernel launched from Python needs an output');
  const output: OutputFile = { path: join(dir, 'out.bin'), dtype: out.dtype, length: out.length };
  const exported = await Promise.all(
    args.map(async (a, i): Promise<PeerKernelArg> => {
      if (a.kind === 'scalar') return { kind: 'scalar', type: a.type, value: a.value };
      if (a.kind === 'output') return { kind: 'output', path: output.path, dtype: a.dtype, length: a.length };
      const path = join(dir, `in${i}.bin`);
      await writeFile(path, new Uint8Array(a.values.buffer, a.values.byteOffset, a.values.byteLength));
      return { kind: 'input', path, dtype: a.values instanceof Float64Array ? 'fp64' : 'fp32', length: a.values.length };
    }),
  );
  return { args: exported, output };
}

// The output file as the exercise's element type (a copy: the file's bytes need not be aligned).
async function readOutput(output: OutputFile): Promise<Float32Array | Float64Array> {
  const bytes = await readFile(output.path);
  const width = output.dtype === 'fp64' ? 8 : 4;
  if (bytes.byteLength !== output.length * width) throw new GpuLabError('PEER_FAILED', `the launch from Python wrote ${bytes.byteLength} bytes, not ${output.length * width}`);
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  return output.dtype === 'fp64' ? new Float64Array(copy.buffer) : new Float32Array(copy.buffer);
}

function hostBytes(args: readonly HostArg[]): number {
  return args.reduce((sum, a) => sum + (a.kind === 'input' ? a.values.byteLength : a.kind === 'output' ? a.length * (a.dtype === 'fp64' ? 8 : 4) : 0), 0);
}

// The comparison of the student's kernel launched from Python: timed and verified, or why it has no figure.
export async function pythonLaunch(job: KernelJob, entry: string, problem: HostProblem, rate: (samples: number[]) => Throughput, signal: AbortSignal): Promise<Comparison> {
  const base = { id: 'python', kind: 'python' as const, title: 'python', throughput: null, verified: false };
  let worker: PeerWorker;
  try {
    worker = await peerWorker();
  } catch (err) {
    const detail = GpuLabError.from(err).message;
    return { ...base, error: `not launched from Python: ${detail}`, why: msg('playground.python.noInterpreter', { detail }) };
  }
  const dir = await shareDir(hostBytes(problem.args));
  let prepared = false;
  try {
    const { args, output } = await exportArgs(dir, problem.args);
    const request = { call: 'prepare-kernel', library: 'auto', device: job.device, source: job.source, fileName: job.fileName, entry, grid: job.launch.grid, block: job.launch.block, sharedBytes: job.launch.dynamicSharedBytes ?? 0, args } as const;
    const answer = PEER_KERNEL_PREPARED.parse(await worker.call(request, CALL_TIMEOUT_MS, signal));
    prepared = true;
    const named = { ...base, id: answer.launcher === 'pycuda' ? 'python-pycuda' : 'python-cuda-core', implementation: `${answer.library} (Python ${worker.version})` };
    named.title = named.id;
    await worker.call({ call: 'output' }, CALL_TIMEOUT_MS, signal);
    const verification = problem.check(await readOutput(output));
    if (!verification.ok) {
      const counts = { wrong: verification.mismatchCount ?? '?', checked: verification.checked, unwritten: verification.neverWritten ?? '?', total: verification.total };
      return { ...named, error: `failed verification: ${counts.wrong} of ${counts.checked} elements checked are wrong, ${counts.unwritten} of ${counts.total} never written`, why: msg('playground.python.wrong', counts) };
    }
    const samples = await launchRounds(answer.firstMs, async (warmup, count) => PEER_SAMPLES.parse(await worker.call({ call: 'sample', warmup, count }, CALL_TIMEOUT_MS, signal)).samplesMs);
    return { ...named, throughput: rate(samples), verified: true, error: null };
  } catch (err) {
    const e = GpuLabError.from(err);
    if (e.code === 'LIBRARY_UNAVAILABLE') {
      return { ...base, error: `not launched from Python: ${e.message}`, why: msg('playground.python.missing', { interpreter: worker.python, detail: e.message }) };
    }
    return { ...base, error: `the launch from Python failed: ${e.message}`, why: msg('playground.python.failed', { detail: e.message }) };
  } finally {
    if (prepared && worker.alive) await worker.call({ call: 'release' }, CALL_TIMEOUT_MS).catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  }
}
