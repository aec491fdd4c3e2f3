// A kernel run inside the compute host: compile the student's source with NVRTC for the device's architecture,
// load it, report the launch and its occupancy, launch once on poisoned outputs and verify, then time with CUDA
// events; the exercise's reference kernels go through the same steps, and the engine's built-in kernels are
// measured by the engine. A compiler error or a failed verification is a result; a fault or a kernel past the
// watchdog is an error, after which the host must not go on (the caller restarts it).
import { GpuLabError } from '../common/errors.ts';
import { MEASUREMENT } from '../common/measurement.ts';
import type { Comparison, KernelRunResult, LaunchReport, Listing, Throughput } from '../common/playground.ts';
import { devices } from '../../native/index.ts';
import type { CudaDevice } from '../../native/index.ts';
import { compileKernel, loadKernel, nvrtcInfo } from '../../native/kernel-playground.ts';
import type { CompiledKernel, LoadedKernel } from '../../native/kernel-playground.ts';
import type { MeasureContext } from './ops/index.ts';
import { countedSamples, summarize } from '../common/pure/statistics.ts';
import { measure } from './ops/index.ts';
import { parseCompilerLog, signatureCheck } from '../common/compiler-log.ts';
import { exerciseDefinition, signatureOf } from '../common/exercises.ts';
import type { ExerciseDefinition } from '../common/exercises.ts';
import type { KernelJob } from '../common/kernel-job.ts';
import { createProblem } from './kernel-problems.ts';
import type { Problem } from './kernel-problems.ts';
import { disassemble, ptxListing, unavailableListing } from './listings.ts';
import { rateYardstick } from './rate-yardstick.ts';
import { WARMUP, launchRounds } from './launch-rounds.ts';
import { pythonLaunch } from './kernel-python.ts';
import type { RateYardstick } from './rate-yardstick.ts';


// The references' compiled images, by source and architecture: compiling them again on every run would cost the
// student a second of NVRTC each time.
const compiledReferences = new Map<string, CompiledKernel>();

interface DeviceFacts extends RateYardstick {
  name: string;
  arch: string;
}

function deviceFacts(device: CudaDevice, exercise: ExerciseDefinition, size: number): DeviceFacts {
  const summary = devices().devices.find((d) => d.id === device);
  if (!summary) throw new GpuLabError('CUDA_UNAVAILABLE', `There is no CUDA device ${device} on this machine`, { device });
  const cc = String(summary.details.computeCapability ?? '');
  const m = /^(\d+)\.(\d+)$/.exec(cc);
  if (!m) throw new GpuLabError('CUDA_ERROR', `The compute capability of ${device} is not known ("${cc}")`, { device });
  return { name: summary.name, arch: `sm_${m[1]}${m[2]}`, ...rateYardstick(exercise, size, summary) };
}

function throughput(exercise: ExerciseDefinition, size: number, samplesMs: readonly number[], peak: DeviceFacts['peak']): Throughput {
  const medianMs = summarize(samplesMs).median;
  // bytes / (ms · 10⁶) = GB/s; flops / (ms · 10⁶) = GFLOP/s.
  const rate = exercise.work(size) / (medianMs * 1e6);
  return { medianMs, samplesMs: [...samplesMs], rate, peakFraction: peak ? rate / peak.value : null };
}

function launchReport(kernel: LoadedKernel, launch: KernelJob['launch'], exercise: ExerciseDefinition, size: number): LaunchReport {
  const threads = launch.block[0] * launch.block[1] * launch.block[2];
  const occ = kernel.occupancy(threads, launch.dynamicSharedBytes ?? 0);
  const launched = threads * launch.grid[0] * launch.grid[1] * launch.grid[2];
  const a = kernel.attributes;
  return {
    ...launch,
    registersPerThread: a.registersPerThread,
    staticSharedBytes: a.staticSharedBytes,
    localBytesPerThread: a.localBytesPerThread,
    maxThreadsPerBlock: a.maxThreadsPerBlock,
    blocksPerSm: occ.blocksPerSm,
    activeWarpsPerSm: occ.activeWarpsPerSm,
    maxWarpsPerSm: occ.maxWarpsPerSm,
    occupancy: occ.occupancy,
    threadsLaunched: launched / exercise.outputShape(size).length,
  };
}

// Runs `work`, then `cleanup` — except after a sticky error: a kernel still running (past the watchdog) makes
// freeing its buffers wait forever, and the process is killed anyway.
async function withCleanup<T>(work: () => Promise<T>, cleanup: () => void): Promise<T> {
  let result: T;
  try {
    result = await work();
  } catch (err) {
    const e = GpuLabError.from(err);
    if (e.code !== 'DEVICE_LOST' && e.details?.sticky !== true) cleanup();
    throw err;
  }
  cleanup();
  return result;
}

async function timeKernel(kernel: LoadedKernel, problem: Problem, launch: KernelJob['launch'], watchdogMs: number, firstMs: number): Promise<number[]> {
  return launchRounds(firstMs, async (warmup, repeats) => (await kernel.launch({ ...launch, args: problem.args, zeroBeforeEach: problem.zeroBeforeEach, warmup, repeats, watchdogMs })).samplesMs);
}

// One launch on poisoned outputs, then the check.
async function verifyOnce(kernel: LoadedKernel, problem: Problem, launch: KernelJob['launch'], watchdogMs: number): Promise<{ verification: Awaited<ReturnType<Problem['verify']>>; firstMs: number }> {
  problem.poisonOutput();
  const { samplesMs } = await kernel.launch({ ...launch, args: problem.args, zeroBeforeEach: problem.zeroBeforeEach, warmup: 0, repeats: 1, watchdogMs });
  return { verification: await problem.verify(), firstMs: samplesMs[0] ?? 0 };
}

function compileFor(exercise: ExerciseDefinition, text: string, fileName: string, entry: string, arch: string, ptx = false): CompiledKernel {
  const types = exercise.params.map((p) => p.ctype);
  return compileKernel({ source: text + signatureCheck(entry, types, signatureOf({ entry, params: exercise.params })), fileName, entry, arch, ptx });
}

// The listings the job asks for, of the student's kernel as compiled; lines are mapped within the student's text
// only (the signature check appended after it maps to none).
async function listingsOf(job: KernelJob, compiled: CompiledKernel, nvrtcVersion: string): Promise<Listing[]> {
  const sourceLines = job.source.split('\n').length;
  return Promise.all(
    job.listings.map(async (kind) => {
      if (kind === 'ptx') {
        if (compiled.ptx === undefined) return unavailableListing('ptx', `NVRTC gave no PTX: ${compiled.ptxReason ?? 'unknown reason'}`);
        const virtual = compiled.arch.startsWith('compute_') ? compiled.arch : compiled.arch.replace('sm_', 'compute_');
        return ptxListing(compiled.ptx, job.fileName, sourceLines, `NVRTC ${nvrtcVersion} (${virtual})`);
      }
      if (!compiled.image || compiled.arch.startsWith('compute_')) {
        return unavailableListing('sass', `this GPU is newer than NVRTC ${nvrtcVersion}: the kernel was compiled to PTX (${compiled.arch}), which the driver turns into SASS at load time, out of sight`);
      }
      return disassemble(compiled.image, job.fileName, sourceLines);
    }),
  );
}

async function referenceComparison(exercise: ExerciseDefinition, job: KernelJob, ref: KernelJob['references'][number], problem: Problem, facts: DeviceFacts): Promise<Comparison> {
  const base = { id: ref.id, kind: 'reference' as const, title: ref.id };
  const key = `${facts.arch}\n${ref.entry}\n${ref.text}`;
  let compiled = compiledReferences.get(key);
  if (!compiled) {
    compiled = compileFor(exercise, ref.text, ref.file.split('/').pop() ?? 'reference.cu', ref.entry, facts.arch);
    if (compiled.ok) compiledReferences.set(key, compiled);
  }
  if (!compiled.ok || !compiled.image || !compiled.loweredName) {
    return { ...base, throughput: null, verified: false, error: `did not compile: ${compiled.log.split('\n').find((l) => l.includes('error')) ?? compiled.log.slice(0, 200)}` };
  }
  const kernel = loadKernel(compiled.image, compiled.loweredName, job.device as CudaDevice);
  return withCleanup(
    async () => {
      const { verification, firstMs } = await verifyOnce(kernel, problem, ref.launch, exercise.watchdogMs);
      if (!verification.ok) return { ...base, throughput: null, verified: false, error: `failed verification: ${verification.mismatchCount ?? '?'} of ${verification.checked} elements checked are wrong, ${verification.neverWritten ?? '?'} of ${verification.total} never written` };
      const samples = await timeKernel(kernel, problem, ref.launch, exercise.watchdogMs, firstMs);
      return { ...base, throughput: throughput(exercise, job.size, samples, facts.peak), verified: true, error: null };
    },
    () => kernel.dispose(),
  );
}

async function builtinComparison(exercise: ExerciseDefinition, job: KernelJob, builtin: ExerciseDefinition['builtins'][number], facts: DeviceFacts, ctx: MeasureContext): Promise<Comparison> {
  const base = { id: builtin.id, kind: builtin.kind, title: builtin.id };
  try {
    const m = MEASUREMENT.parse(builtin.measurement(job.size, job.device as CudaDevice));
    const r = await measure(m, ctx);
    const samples = countedSamples(r);
    const verified = r.verification?.passed ?? false;
    return { ...base, throughput: verified ? throughput(exercise, job.size, samples, facts.peak) : null, verified, error: verified ? null : 'failed verification' };
  } catch (err) {
    const e = GpuLabError.from(err);
    // A fault in the engine's own kernel is as fatal to this host as one in the student's.
    if (e.code === 'DEVICE_LOST') throw e;
    return { ...base, throughput: null, verified: false, error: e.message };
  }
}

export async function runKernelJob(job: KernelJob, ctx: MeasureContext): Promise<KernelRunResult> {
  const started = performance.now();
  const exercise = exerciseDefinition(job.exercise);
  const nvrtc = nvrtcInfo();
  if (!nvrtc.available) throw new GpuLabError('LIBRARY_UNAVAILABLE', `NVRTC, the CUDA run-time compiler, is not available: ${nvrtc.reason ?? 'unknown reason'}`, { library: 'nvrtc' });
  const device = job.device as CudaDevice;
  const facts = deviceFacts(device, exercise, job.size);
  const compiled = compileFor(exercise, job.source, job.fileName, exercise.entry, facts.arch, job.listings.includes('ptx'));
  const result: KernelRunResult = {
    exercise: job.exercise,
    device,
    deviceName: facts.name,
    size: job.size,
    compile: {
      ok: compiled.ok,
      log: compiled.log,
      diagnostics: parseCompilerLog(compiled.log, job.source, exercise.entry),
      arch: compiled.arch,
      nvrtcVersion: nvrtc.version ?? '?',
      ms: compiled.ms,
    },
    launch: null,
    verification: null,
    throughput: null,
    comparisons: [],
    peak: facts.peak,
    ...(facts.l2 ? { l2: facts.l2 } : {}),
    warmup: WARMUP,
    repeats: 0,
    totalMs: 0,
  };
  const phases = { compile: performance.now() - started, inputs: 0, verify: 0, time: 0, compare: 0 };
  let mark = performance.now();
  const lap = (phase: keyof typeof phases): void => {
    const now = performance.now();
    phases[phase] += now - mark;
    mark = now;
  };
  const done = (): KernelRunResult => ({ ...result, totalMs: performance.now() - started, phasesMs: { ...phases } });
  if (!compiled.ok || !compiled.image || !compiled.loweredName) return done();
  if (job.listings.length) result.listings = await listingsOf(job, compiled, nvrtc.version ?? '?');

  const kernel = loadKernel(compiled.image, compiled.loweredName, device);
  lap('compile');
  const problem = await createProblem(job.exercise, job.size, device, job.seed);
  lap('inputs');
  return withCleanup(async () => {
    result.launch = launchReport(kernel, job.launch, exercise, job.size);
    const { verification, firstMs } = await verifyOnce(kernel, problem, job.launch, exercise.watchdogMs);
    result.verification = verification;
    lap('verify');
    if (!verification.ok) return done();
    const samples = await timeKernel(kernel, problem, job.launch, exercise.watchdogMs, firstMs);
    result.repeats = samples.length;
    result.throughput = throughput(exercise, job.size, samples, facts.peak);
    lap('time');
    if (job.compare) {
      for (const ref of job.references) {
        if (ctx.signal.aborted) break;
        result.comparisons.push(await referenceComparison(exercise, job, ref, problem, facts));
      }
      // The same kernel launched from Python, as the course launches it, on the same inputs.
      if (exercise.fromPython && problem.python && !ctx.signal.aborted) {
        result.comparisons.push(await pythonLaunch(job, exercise.entry, problem.python(), (samples) => throughput(exercise, job.size, samples, facts.peak), ctx.signal));
      }
      // The built-ins make buffers of their own: the student's go first.
      problem.free();
      for (const builtin of exercise.builtins) {
        if (ctx.signal.aborted) break;
        result.comparisons.push(await builtinComparison(exercise, job, builtin, facts, ctx));
      }
      lap('compare');
    }
    return done();
  }, () => {
    problem.free();
    kernel.dispose();
  });
}
