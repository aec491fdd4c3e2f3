// Where a measurement's buffers live and how its samples are timed: the one thing the CPU and a CUDA device do
// differently. An op (ops/*.ts) asks its backend for operands (seeded inputs) and outputs (poisoned: NaN bytes where
// the type has a NaN, 0xFF otherwise, so that an element left unwritten fails verification), hands it the native spec
// with a verdict to compute afterwards, and gets the measurement's result; the backend frees what it made.
//
//   cpu   operands in host memory; host clock only; no copies to time
//   cuda  operands on the device, or in pageable host memory when the copies are timed (path "with-copies");
//         CUDA events, the host clock after a synchronise, or the host clock without one; telemetry before and after
//   webgpu  host/webgpu/backend.ts: arrays on the host and on the adapter, WGSL passes, timestamp queries or the
//         host clock; sampled by the same rule (sampleMeasurement, below)
import { GpuLabError } from '../../common/errors.ts';
import type { Measurement, MeasurementResult, PointPhase, PointSampling, TelemetrySnapshot, Verification } from '../../common/measurement.ts';
import { DTYPE_BYTES, benchmark, createDeviceBuffer, createHostBuffer, createPinnedBuffer, poisonAsync, telemetry } from '../../../native/index.ts';
import type { CpuOpSpec, CudaDevice, CudaOpSpec, DType, ElementBuffer, OpSpec } from '../../../native/index.ts';
import { DEFAULT_BUDGET_SECONDS, TARGET_INTERVAL_FRACTION, joinRounds, sampleAdaptively } from '../sampling.ts';
import type { RoundResult } from '../sampling.ts';
import { cpuQuiet, cpuWorkDone } from '../cpu-quiet.ts';
import { givePinned, takePinned } from '../pinned-pool.ts';
import { giveInput, makeRoomFor, pointEnded, pointStarted, takeInput, takePinnedBuffer } from '../kept-inputs.ts';

// A CUDA op as an op file writes it: the backend adds the device and the clock.
type Unclocked<T> = T extends unknown ? Omit<T, 'device' | 'clock'> : never;
export type BackendOpSpec = CpuOpSpec | Unclocked<CudaOpSpec>;

export interface MeasureContext {
  signal: AbortSignal;
  onProgress: (done: number, total: number) => void;
}

// Where a buffer is made: the backend's own memory, host memory the copies come from, or pinned host memory.
export type Place = 'home' | 'host' | 'pinned' | 'device';

export function unsupported(what: string, device: string): GpuLabError {
  const who = device === 'cpu' ? 'The CPU' : device.startsWith('webgpu:') ? `The WebGPU device (${device})` : `The GPU (${device})`;
  return new GpuLabError('UNSUPPORTED_OPERATION', `${who} does not run ${what}`, { device });
}

// Pinned memory the pool lacks: a kept input's (written anew by its new point), else page-locked now.
function pinnedFromKept<D extends DType>(dtype: D, length: number): ElementBuffer<D> {
  return (takePinnedBuffer(dtype, length) as ElementBuffer<D> | undefined) ?? createPinnedBuffer(dtype, length);
}

export class MeasurementBackend {
  readonly kind: 'cpu' | 'cuda';
  readonly device: string;
  // Whether the copies to and from the device are part of what is timed.
  readonly withCopies: boolean;
  private readonly m: Measurement;
  private readonly ctx: MeasureContext;
  private readonly buffers: ElementBuffer[] = [];
  // This point's inputs in host memory, by what filled them, and whether the fill is done: only a filled one is kept.
  private readonly inputKeys = new Map<ElementBuffer, { key: string; filled: boolean }>();
  // The bytes of the inputs this point made, none being kept: what is kept makes room for them.
  private newInputBytes = 0;
  // The fills and poisonings of host buffers, written off the host's JS thread (gigabytes of first-touched pages take
  // seconds, and the supervisor's heartbeats must still be answered); run() waits for them before timing anything.
  private readonly writes: Promise<unknown>[] = [];
  // Seconds spent in each phase of the point so far (PointSampling.phases).
  readonly phases: Partial<Record<PointPhase, number>> = {};

  constructor(m: Measurement, ctx: MeasureContext) {
    this.m = m;
    this.ctx = ctx;
    this.device = m.device;
    this.kind = m.device === 'cpu' ? 'cpu' : 'cuda';
    this.withCopies = 'path' in m && m.path === 'with-copies';
    if (this.kind === 'cpu' && m.clock === 'host-nosync') throw unsupported('the host-nosync clock (there is no asynchronous launch on the CPU)', 'cpu');
    if (this.kind === 'cpu' && this.withCopies) throw unsupported('host↔device transfers', 'cpu');
    // Paired with free(): while the point measures, the inputs kept beside it stay (kept-inputs.ts).
    pointStarted();
  }

  // Runs `work` and counts its time to `phase`.
  async phase<T>(phase: PointPhase, work: () => Promise<T> | T): Promise<T> {
    const started = performance.now();
    try {
      return await work();
    } finally {
      this.phases[phase] = (this.phases[phase] ?? 0) + (performance.now() - started) / 1000;
    }
  }

  // A write run() will wait for; handled here too, so that an op refused before run() leaves no unhandled rejection.
  private write(p: Promise<unknown>): void {
    p.catch(() => undefined);
    this.writes.push(p);
  }

  private keep<D extends DType>(b: ElementBuffer<D>): ElementBuffer<D> {
    this.buffers.push(b);
    return b;
  }

  private where(place: Place): Exclude<Place, 'home'> {
    return place === 'home' ? (this.kind === 'cpu' || this.withCopies ? 'host' : 'device') : place;
  }

  buffer<D extends DType>(dtype: D, length: number, place: Place = 'home'): ElementBuffer<D> {
    const where = this.where(place);
    if (where === 'device') return this.keep(createDeviceBuffer(dtype, length, this.device as CudaDevice));
    // A cold measurement's buffers are fresh, its first touch part of what it times.
    if (where === 'pinned') return this.keep(this.m.cold ? createPinnedBuffer(dtype, length) : takePinned(dtype, length, pinnedFromKept));
    return this.keep(createHostBuffer(dtype, length));
  }

  // An input filled from the seed's `slot`-th stream: slot 0 is the seed itself, slot 1 the seed + 1, and so on
  // (the one seeding rule: twin buffers filled from the same seed and slot hold the same values).
  // In host memory it is the one kept from an earlier point where one was filled alike (kept-inputs.ts), and is kept
  // for the next at this point's end; a cold measurement's are its own, first touched by its fill.
  input<D extends DType>(dtype: D, length: number, slot: number, range?: { low: number; high: number }, place: Place = 'home'): ElementBuffer<D> {
    const where = this.where(place);
    if (this.m.cold || where === 'device') return this.ownInput(dtype, length, slot, range, place);
    const key = `${where}:${this.m.seed + slot}:${dtype}:${length}:${range ? `${range.low},${range.high}` : ''}`;
    const found = takeInput(key);
    if (found) {
      this.inputKeys.set(this.keep(found), { key, filled: true });
      return found as ElementBuffer<D>;
    }
    this.newInputBytes += length * DTYPE_BYTES[dtype];
    makeRoomFor(this.newInputBytes);
    const b = this.buffer(dtype, length, place);
    const made = { key, filled: false };
    this.inputKeys.set(b, made);
    const fill = b.fillRandomAsync(this.m.seed + slot, range);
    fill.then(() => {
      made.filled = true;
    }, () => undefined);
    this.write(fill);
    return b;
  }

  // An input of this point's own, never kept for another: for an op that writes into it (blas1's sum rounds its values
  // down), or one on the device, which its GPU fills in a moment.
  ownInput<D extends DType>(dtype: D, length: number, slot: number, range?: { low: number; high: number }, place: Place = 'home'): ElementBuffer<D> {
    const b = this.buffer(dtype, length, place);
    this.write(b.fillRandomAsync(this.m.seed + slot, range));
    return b;
  }

  // An output whose every element starts as a value no correct result holds. A cold CPU measurement leaves its
  // output untouched instead: poisoning would map its pages, and the first touch is what a cold call measures.
  output<D extends DType>(dtype: D, length: number, place: Place = 'home'): ElementBuffer<D> {
    const out = this.buffer(dtype, length, place);
    if (!(this.kind === 'cpu' && this.m.cold)) this.write(poisonAsync(out));
    return out;
  }

  private snapshot(): TelemetrySnapshot | null {
    if (this.kind === 'cpu') return null;
    try {
      const t = telemetry(this.device as CudaDevice);
      if (!t.available) return null;
      return { smClockMHz: t.smClockMHz, memoryClockMHz: t.memoryClockMHz, temperatureC: t.temperatureC, powerW: t.powerW, throttleReasons: t.throttleReasons ?? [] };
    } catch {
      return null;
    }
  }

  // Every write settled (a failed one fails the point), none still running when the clock starts.
  async settled(): Promise<void> {
    const writes = await this.phase('inputs', () => Promise.allSettled(this.writes.splice(0)));
    const failed = writes.find((w) => w.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;
  }

  // Times the native op (sampleMeasurement, below), then computes the verdict on what it left in the outputs: nothing
  // is reported as a time before it is checked.
  async run(spec: BackendOpSpec, verify: () => Verification | null): Promise<MeasurementResult> {
    const native = (this.kind === 'cpu' ? spec : { ...spec, device: this.device, clock: this.m.clock }) as OpSpec;
    await this.settled();
    // A GEMM on a BLAS computes on that library's threads, anything else on the engine's own.
    const user = 'library' in spec && typeof spec.library === 'number' ? `blas:${spec.library}` : 'engine';
    if (this.kind === 'cpu') await this.phase('quiet', () => cpuQuiet(user));
    try {
      return await this.sample(native, verify);
    } finally {
      if (this.kind === 'cpu') cpuWorkDone(user);
    }
  }

  private async sample(native: OpSpec, verify: () => Verification | null): Promise<MeasurementResult> {
    const start = this.snapshot();
    // The CPU has the host's clock alone, whatever the measurement asked.
    const clock = this.kind === 'cpu' ? 'host' : this.m.clock;
    const round: TakeTimedRound = async (warmup, repeats, onProgress, executionsPerSample) => {
      const r = await benchmark(native, { warmup, repeats, minSampleMs: this.m.minSampleMs, executionsPerSample, signal: this.ctx.signal, onProgress: (p) => onProgress(p.done, p.total) });
      return { ...r, clock, sampleWallMs: r.hostMs.map((ms) => ms * r.executionsPerSample) };
    };
    const { rounds, sampling } = await this.phase('sampling', () => sampleMeasurement(this.m, this.ctx, round));
    const end = this.snapshot();
    const verification = await this.phase('check', verify);
    return { ...resultOf(rounds, sampling), sampling: { ...sampling, phases: this.phases }, verification, telemetry: start && end ? { start, end } : null };
  }

  // A filled host input is kept for the next point that asks for it (kept-inputs.ts); other pinned memory goes back to
  // the pool for the next point of its size (pinned-pool.ts); the rest is freed.
  free(): void {
    try {
      for (const b of this.buffers.splice(0)) {
        const input = this.inputKeys.get(b);
        if (input?.filled) giveInput(input.key, b);
        else if (b.location === 'pinned') givePinned(b);
        else b.free();
      }
    } finally {
      // Whatever a buffer did, the point is over: an open point left counted would hold the kept inputs for good.
      pointEnded();
    }
  }
}

// One round of samples as a backend takes them: on the clock that timed them, every sample's host time and the
// device's where it has a device clock (those that count: statistics.ts countedSamples), and the code that ran.
export interface TimedRound extends RoundResult {
  implementation: string;
  threads: number;
  executionsPerSample: number;
}
export type TakeTimedRound = (warmup: number, repeats: number, onProgress: (done: number, total: number) => void, executionsPerSample?: number) => Promise<TimedRound>;

// How every backend samples a measurement (the CPU's and CUDA's native harness, WebGPU's in host/webgpu/): a warm one
// in rounds until the engine's rule stops it (sampling.ts), the warm-up before the first round only, where the
// backend also sizes the batch of runs in a sample (minSampleMs); each later round takes its samples at that same
// size, so every sample of a point means the same and no round spends time sizing again. Where samples are batched, a
// later round first runs the op once untimed (a short op's caches and clocks cool in the gap between rounds); where
// one run fills a sample, that run would cost a whole sample for nothing, and is skipped. A cold one is its samples
// in one go.
export async function sampleMeasurement(m: Measurement, ctx: MeasureContext, round: TakeTimedRound): Promise<{ rounds: TimedRound[]; sampling: PointSampling }> {
  const budgetSeconds = m.budgetSeconds ?? DEFAULT_BUDGET_SECONDS;
  if (m.cold) {
    const r = await round(0, m.repeats, ctx.onProgress);
    return { rounds: [r], sampling: { samples: r.hostMs.length, targetFraction: TARGET_INTERVAL_FRACTION, budgetSeconds, stop: 'max-samples' } };
  }
  let sized: number | undefined;
  return sampleAdaptively(
    async ({ first, samples }) => {
      const r = await round(first ? m.warmup : (sized ?? 1) > 1 ? 1 : 0, samples, () => undefined, first ? undefined : sized);
      if (first && m.minSampleMs > 0 && m.warmup > 0) sized = r.executionsPerSample;
      return r;
    },
    { budgetSeconds, plannedRuns: m.warmup + m.repeats, targetFraction: m.targetFraction, signal: ctx.signal, onProgress: (spent, budget) => ctx.onProgress(Math.round(spent), Math.round(budget)) },
  );
}

// The rounds of a point as its result, before its verdict and telemetry are added.
export function resultOf(rounds: readonly TimedRound[], sampling: PointSampling): Omit<MeasurementResult, 'verification' | 'telemetry'> {
  const first = rounds[0];
  return {
    ...joinRounds(rounds),
    implementation: first?.implementation ?? '',
    threads: first?.threads ?? 0,
    // Every round of a warm point takes its samples at the first round's size.
    executionsPerSample: first?.executionsPerSample ?? 1,
    sampling,
  };
}
