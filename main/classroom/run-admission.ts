// What a run asks of the class's machine, found before it is queued: a lab run is planned as the runner will plan it
// (the same lab, parameters, device and Python peers), a kernel run is resolved as the playground will run it. From
// that: its time limit, and for a student the teacher's caps, each refusal naming the cap, the run's figure and the
// limit, before the run takes a place in the queue.
import type { ClassCaps } from '../common/contract/classroom.ts';
import type { StartRunRequest } from '../common/contract/runs.ts';
import { GpuLabError } from '../common/errors.ts';
import { exerciseDefinition } from '../common/exercises.ts';
import { measurementFootprint } from '../common/footprint.ts';
import { formatBytes } from '../common/pure/format.ts';
import type { KernelRunRequest } from '../common/playground.ts';
import type { PeerLibrary, PeersReport } from '../common/peer-protocol.ts';
import type { HostEnvironment } from '../engine/supervisor.ts';
import type { PlannedPoint } from '../labs/lab.ts';
import { resolveRequest } from '../playground/playground-service.ts';
import { checkDevice, defaultDevice, peersAsked, planContext, validateRunRequest } from '../runs/lab-runner.ts';
import { pointBudgetSeconds } from '../runs/point-budget.ts';

// A lab run's limit: each measured point twice its sampling budget (or its expected time, where that is longer: the
// warm-up and the last sample run past the budget) and 2 s for its buffers, inputs and verification, and 30 s for the
// run's start (the device list, the Python probe) and its end (the analysis, the record saved).
const SECONDS_PER_POINT = 2;
const START_AND_END_SECONDS = 30;
// A kernel run: compiling, verifying and timing the student's kernel and the references takes seconds; a launch past
// the exercise's watchdog (5–10 s) ends it. Two minutes covers a slow kernel at the largest size.
export const KERNEL_LIMIT_SECONDS = 120;

export interface AdmittedLabRun {
  request: StartRunRequest & { device: string };
  lab: string;
  limitSeconds: number;
}

export interface AdmittedKernelRun {
  request: KernelRunRequest & { device: string };
  exercise: string;
  limitSeconds: number;
}

export interface AdmissionContext {
  environment: () => Promise<HostEnvironment>;
  peers: (libraries: readonly PeerLibrary[]) => Promise<PeersReport>;
}

function overCap(cap: keyof ClassCaps, value: number, limit: number, what: string): GpuLabError {
  return new GpuLabError('INVALID_PARAMS', `${what}; the class allows at most ${cap === 'maxBytes' ? formatBytes(limit, 'en') : limit}${cap === 'maxSeconds' ? ' s' : ''} (the teacher's cap ${cap}): choose fewer or smaller sizes`, {
    cap,
    value,
    limit,
  });
}

export function labRunLimitSeconds(planned: readonly PlannedPoint[]): number {
  const measured = planned.filter((p) => p.measurement);
  return Math.ceil(START_AND_END_SECONDS + measured.reduce((s, p) => s + 2 * Math.max(pointBudgetSeconds(p), p.expectedSeconds) + SECONDS_PER_POINT, 0));
}

// The most memory one point holds, on the host or on its device: points run one at a time.
function largestPointBytes(planned: readonly PlannedPoint[]): number {
  return planned.reduce((most, p) => {
    if (!p.measurement) return most;
    const f = measurementFootprint(p.measurement);
    return Math.max(most, f.hostBytes, f.deviceBytes);
  }, 0);
}

// `caps` null: the teacher's run, held to none.
export async function admitLabRun(request: StartRunRequest, caps: ClassCaps | null, ctx: AdmissionContext): Promise<AdmittedLabRun> {
  const { lab, device: asked, params } = validateRunRequest(request);
  const env = await ctx.environment();
  const device = asked ?? defaultDevice(env);
  if (device !== 'cpu') checkDevice(env.devices, device);
  const libraries = peersAsked(lab, request.peers);
  const peers = libraries.length ? { asked: libraries, report: await ctx.peers(libraries) } : undefined;
  const planned = lab.plan(params, planContext(env, device, peers));
  const limitSeconds = labRunLimitSeconds(planned);
  if (caps) {
    const points = planned.filter((p) => p.measurement).length;
    if (points > caps.maxPoints) throw overCap('maxPoints', points, caps.maxPoints, `The run plans ${points} points`);
    const bytes = largestPointBytes(planned);
    if (bytes > caps.maxBytes) throw overCap('maxBytes', bytes, caps.maxBytes, `Its largest point holds ${formatBytes(bytes, 'en')}`);
    if (limitSeconds > caps.maxSeconds) throw overCap('maxSeconds', limitSeconds, caps.maxSeconds, `Its plan may take up to ${limitSeconds} s`);
  }
  // A class's run waits for a device another program holds, in the queue's place, rather than failing.
  return { request: { ...request, device, params, wait: true }, lab: lab.descriptor.id, limitSeconds };
}

// The device memory of a kernel run: each input read and each output written once by a launch for the bandwidth
// exercises (so their bytes moved are their buffers); A, B and C of N × N for the matrix product.
export function kernelRunBytes(exerciseId: KernelRunRequest['exercise'], size: number): number {
  const exercise = exerciseDefinition(exerciseId);
  if (exercise.metric === 'GB/s') return exercise.work(size);
  const arrays = exercise.params.filter((p) => p.role !== 'scalar').length;
  return arrays * exercise.outputShape(size).length * (exercise.elementType === 'fp64' ? 8 : 4);
}

export async function admitKernelRun(request: KernelRunRequest, caps: ClassCaps | null, ctx: AdmissionContext): Promise<AdmittedKernelRun> {
  const resolved = resolveRequest(request);
  if (caps) {
    const bytes = kernelRunBytes(request.exercise, resolved.size);
    if (bytes > caps.maxBytes) throw overCap('maxBytes', bytes, caps.maxBytes, `Its buffers hold ${formatBytes(bytes, 'en')} at size ${resolved.size}`);
  }
  let device = request.device;
  if (device === undefined) {
    const env = await ctx.environment();
    const cuda = env.devices.devices.find((d) => d.kind === 'cuda');
    if (!cuda) throw new GpuLabError('CUDA_UNAVAILABLE', `Kernels run on an NVIDIA GPU, and there is none here: ${env.devices.cudaReason ?? 'no CUDA device'}`);
    device = cuda.id;
  }
  const limitSeconds = caps ? Math.min(KERNEL_LIMIT_SECONDS, caps.maxSeconds) : KERNEL_LIMIT_SECONDS;
  return { request: { ...request, device, wait: true }, exercise: request.exercise, limitSeconds };
}
