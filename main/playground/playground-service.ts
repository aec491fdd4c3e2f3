// The playground service of the contract: checks what a kernel run request asks of the exercise and of CUDA
// (naming the field at fault), fills in the defaults (the first CUDA device, the exercise's size, and the launch the
// source's header states, else the exercise's block and covering grid), hands the job to the compute host with the
// exercise's reference sources, each launched as its own header states, and stores the run whatever its outcome.
import { GpuLabError } from '../common/errors.ts';
import type { ErrorPayload } from '../common/errors.ts';
import type { PlaygroundService } from '../common/contract/playground.ts';
import type { Dim3, ExerciseId, KernelRun, KernelRunRequest, KernelRunResult, ListingKind, PlaygroundStatus } from '../common/playground.ts';
import { describeValue } from '../common/params.ts';
import { noCudaWhy } from '../common/pure/host-reasons.ts';
import { msg } from '../common/pure/message.ts';
import { checkKernelSource, describeSourceRefusal } from '../common/pure/kernel-source-check.ts';
import { describeLaunchHeaderProblem, readLaunchHeader, resolveLaunch } from '../common/pure/launch-header.ts';
import type { ComputeHostSupervisor } from '../engine/supervisor.ts';
import { DeviceLocks, type DeviceLease } from '../engine/device-lock.ts';
import { readInstalledSource } from '../sources/kernel-sources.ts';
import { comparisonTitle, exerciseDescriptors, kernelLaunch } from './descriptors.ts';
import { exerciseDefinition } from '../common/exercises.ts';
import type { ExerciseDefinition } from '../common/exercises.ts';
import type { KernelJob } from '../common/kernel-job.ts';
import type { KernelStore } from './kernel-store.ts';

export interface PlaygroundSources {
  supervisor: ComputeHostSupervisor;
  store: KernelStore;
  sourceRoots: readonly string[];
  // The devices' locks (main/engine/device-lock.ts): a kernel run waits for a lab run of any process on its GPU.
  locks?: DeviceLocks;
}

// CUDA's launch limits: threads per block (x, y ≤ 1024, z ≤ 64, product ≤ 1024), blocks per grid (x < 2³¹, y and
// z ≤ 65535).
const BLOCK_LIMITS: Dim3 = [1024, 1024, 64];
const GRID_LIMITS: Dim3 = [2 ** 31 - 1, 65535, 65535];

function invalid(field: string, value: unknown, expected: string): GpuLabError {
  return new GpuLabError('INVALID_ARGUMENT', `\`${field}\` = ${describeValue(value)} is not allowed: expected ${expected}`, { field, value: describeValue(value), expected });
}

function checkDims(field: 'block' | 'grid', dims: Dim3, limits: Dim3): void {
  dims.forEach((d, i) => {
    const limit = limits[i] ?? 1;
    if (d > limit) throw invalid(field, dims, `${'xyz'[i] ?? ''} at most ${limit}`);
  });
  if (field === 'block' && dims[0] * dims[1] * dims[2] > 1024) throw invalid('block', dims, 'at most 1024 threads in all (x · y · z)');
}

// NVRTC would read any file the compute host can read for an #include, and echo its lines in the compiler's
// messages: through serve mode, a way to read files on the GPU server. The exercises need no header, so the source
// passes the allowlist of kernel-source-check before anything else is looked at.
function checkSource(source: string): void {
  const refusal = checkKernelSource(source);
  if (!refusal) return;
  throw new GpuLabError('INVALID_ARGUMENT', `\`source\` ${describeSourceRefusal(refusal)}`, { field: 'source', ...refusal });
}

export interface ResolvedRequest {
  exercise: ExerciseDefinition;
  size: number;
  launch: { grid: Dim3; block: Dim3; dynamicSharedBytes: number };
  compare: boolean;
  fileName: string;
  source: string;
  listings: ListingKind[];
}

// The request checked and completed; the device is resolved separately (it needs the compute host). Its shape was
// checked at the contract's door (KERNEL_RUN_REQUEST); what needs the exercise, CUDA's limits, the source's
// allowlist or its launch header is checked here. The launch: the request's block and grid, else the header's
// (launch-header.ts), else the exercise's block and one thread per element.
export function resolveRequest(r: KernelRunRequest): ResolvedRequest {
  checkSource(r.source);
  const { header, problem } = readLaunchHeader(r.source);
  if (problem) throw new GpuLabError('INVALID_ARGUMENT', `\`source\` ${describeLaunchHeaderProblem(problem)}`, { field: 'source', header: { ...problem } });
  const exercise = exerciseDefinition(r.exercise);
  const size = r.size ?? exercise.size.default;
  if (size < exercise.size.min || size > exercise.size.max) {
    throw invalid('size', size, `an integer from ${exercise.size.min} to ${exercise.size.max} for ${exercise.id} (${exercise.size.name})`);
  }
  if (r.block) checkDims('block', r.block, BLOCK_LIMITS);
  const launch = resolveLaunch(exercise, size, header, { ...(r.block ? { block: r.block } : {}), ...(r.grid ? { grid: r.grid } : {}) });
  checkDims('block', launch.block, BLOCK_LIMITS);
  checkDims('grid', launch.grid, GRID_LIMITS);
  return { exercise, size, launch, compare: r.compare ?? true, fileName: r.fileName ?? `${exercise.id}.cu`, source: r.source, listings: [...new Set(r.listings ?? [])] };
}

// A caller inside main (a class's queue) may give a kernel run a shorter time than the compute host's own limit; past
// it the host is restarted and the run stored as failed with TIMEOUT.
export interface KernelRunOptions {
  timeoutMs?: number;
}

export interface LocalPlaygroundService extends PlaygroundService {
  runKernel(request: KernelRunRequest, options?: KernelRunOptions): Promise<KernelRun>;
}

function statusOf(result: KernelRunResult): KernelRun['status'] {
  if (!result.compile.ok) return 'compile-error';
  return result.verification?.ok ? 'verified' : 'verification-failed';
}

export function createPlaygroundService(sources: PlaygroundSources): LocalPlaygroundService {
  const { supervisor, store, sourceRoots } = sources;
  const locks = sources.locks ?? new DeviceLocks();

  async function firstCudaDevice(): Promise<string> {
    const env = await supervisor.environment();
    const cuda = env.devices.devices.find((d) => d.kind === 'cuda');
    if (!cuda) throw new GpuLabError('CUDA_UNAVAILABLE', `Kernels run on an NVIDIA GPU, and there is none here: ${env.devices.cudaReason ?? 'no CUDA device'}`);
    return cuda.id;
  }

  async function job(resolved: ResolvedRequest, device: string): Promise<KernelJob> {
    const references = resolved.compare ? resolved.exercise.kernels.filter((k) => k.kind === 'reference') : [];
    return {
      exercise: resolved.exercise.id,
      device,
      size: resolved.size,
      source: resolved.source,
      fileName: resolved.fileName,
      launch: resolved.launch,
      compare: resolved.compare,
      // Each reference launched as its own header says, whatever the student's launch.
      references: await Promise.all(
        references.map(async (k) => {
          const text = await readInstalledSource(k.file, sourceRoots);
          return { id: k.id, file: k.file, entry: resolved.exercise.entry, text, launch: kernelLaunch(resolved.exercise, k.file, text, resolved.size) };
        }),
      ),
      seed: Math.floor(Math.random() * 2 ** 31),
      listings: resolved.listings,
    };
  }

  return {
    listExercises: async (locale) => exerciseDescriptors(locale ?? 'en', sourceRoots),

    async status(): Promise<PlaygroundStatus> {
      const report = await supervisor.inspect();
      const nvrtcLib = report.cuda.libraries.nvrtc;
      const nvrtc = { available: nvrtcLib.found, version: nvrtcLib.version, reason: nvrtcLib.found ? null : nvrtcLib.reason };
      const devices = report.cuda.devices.map((d) => ({ id: d.id, name: d.name, computeCapability: d.computeCapability }));
      const unavailableReason = !devices.length
        ? (report.list.cudaReason ?? report.cuda.reason ?? 'no CUDA device')
        : !nvrtc.available
          ? `NVRTC, the CUDA run-time compiler, was not found: ${nvrtc.reason ?? 'unknown'}`
          : null;
      // The same in the reader's words: the host's reasons as messages (main/common/pure/host-reasons.ts).
      const unavailableWhy = !devices.length
        ? (report.list.cudaWhy ?? report.cuda.why ?? noCudaWhy(unavailableReason ?? 'no CUDA device'))
        : !nvrtc.available
          ? msg('reasons.nvrtcMissing', { why: nvrtcLib.why ?? nvrtc.reason ?? '' })
          : null;
      return { nvrtc, devices, unavailableReason, unavailableWhy };
    },

    async runKernel(withWait: KernelRunRequest, options: KernelRunOptions = {}): Promise<KernelRun> {
      // Whether to wait for a busy GPU is this request's business, not the stored run's.
      const { wait, ...request } = withWait;
      const resolved = resolveRequest(request);
      const device = request.device ?? (await firstCudaDevice());
      const base = {
        id: store.newId(resolved.exercise.id),
        exercise: resolved.exercise.id,
        createdAt: new Date().toISOString(),
        source: resolved.source,
        request: { ...request, device, size: resolved.size, block: resolved.launch.block, grid: resolved.launch.grid, compare: resolved.compare },
      };
      let run: KernelRun;
      let lease: DeviceLease | null = null;
      try {
        lease = await locks.acquire([device], 'kernel', resolved.exercise.id, { wait: wait !== false });
        const result = await supervisor.runKernel(await job(resolved, device), options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs });
        // Stored in English; a reader's language is applied when shown.
        result.comparisons = result.comparisons.map((c) => ({ ...c, title: comparisonTitle(resolved.exercise.id, c.id, 'en') }));
        run = { ...base, status: statusOf(result), result, error: null };
      } catch (err) {
        const e = GpuLabError.from(err);
        if (e.code === 'INVALID_ARGUMENT' || e.code === 'CUDA_UNAVAILABLE' || e.code === 'LIBRARY_UNAVAILABLE' || e.code === 'DEVICE_BUSY') throw e;
        const restarted = e.details?.hostRestarted === true || e.code === 'COMPUTE_HOST_CRASHED';
        const error: ErrorPayload = {
          code: e.code,
          message: restarted ? `${e.message}. The compute host was restarted; nothing else was affected.` : e.message,
          ...(e.details ? { details: e.details } : {}),
        };
        run = { ...base, status: 'failed', result: null, error };
      } finally {
        await lease?.release();
      }
      await store.save(run);
      return run;
    },

    listKernelRuns: (exercise?: ExerciseId) => store.list(exercise),
    getKernelRun: (id) => store.get(id),
    deleteKernelRun: (id) => store.delete(id),
    loadDraft: (exercise) => store.loadDraft(exercise),
    saveDraft: (exercise, source) => store.saveDraft(exercise, source),
  };
}
