// The WebGPU backend: where a measurement on "webgpu:N" keeps its arrays and how its samples are timed (the CPU's and
// CUDA's are ops/backend.ts; the sampling rule is the same function for all, sampleMeasurement). An op asks for
// seeded inputs and a poisoned output (GpuArray, arrays.ts: the values on the host, their buffer on the device),
// names the WGSL dispatches, and gets the measurement's result, checked by the same float64 reference as on the other
// devices. The copies of the transfer lab time their own samples through the same rounds (copy.ts, `timed`).
//
//   resident      inputs written to the device once, before the warm-up; a sample is the dispatches alone.
//   with-copies   a sample is the inputs written with queue.writeBuffer, the dispatches, the output copied to a
//                 mapped staging buffer and read into host memory: what a program with its arrays on the host waits for.
//
// Clocks (measurement.ts CLOCK): `events` reads timestamp queries at the beginning and the end of the compute pass
// that holds the sample's dispatches, where the adapter has them (Dawn's quantisation off: dawn.ts), else the host's
// clock; `host` the host's monotonic clock from submit() to onSubmittedWorkDone() (or, with the copies, to the mapped
// output read back); `host-nosync` stops it when submit() returns. The first dispatch after a pipeline is made is
// warm-up, never a sample, whatever warm-up the measurement asks for. A cold measurement's pipelines are made anew
// (device.ts) and their making is counted in its first sample: what a program's first dispatch waits for.
import { GpuLabError } from '../../common/errors.ts';
import type { ClockResolution, Measurement, MeasurementResult, Verification } from '../../common/measurement.ts';
import { TIMESTAMP_QUANTUM_NS } from '../../common/measurement.ts';
import { adapterName } from '../../common/webgpu-adapters.ts';
import { createHostBuffer } from '../../../native/index.ts';
import { resultOf, sampleMeasurement, unsupported } from '../ops/backend.ts';
import type { MeasureContext, TakeTimedRound } from '../ops/backend.ts';
import { ELEMENT_BYTES, GpuArray, hostArray, padded, wordBytes } from './arrays.ts';
import type { WebgpuDtype } from './arrays.ts';
import { webgpuDevice } from './device.ts';
import type { WebgpuDevice } from './device.ts';
import { wgslPath, wgslSource } from './wgsl.ts';
import type { WgslShader } from './wgsl.ts';

export { GpuArray } from './arrays.ts';

// The most runs a batched sample holds (the native harness's kMaxExecutionsPerSample).
const MAX_EXECUTIONS_PER_SAMPLE = 100_000;
const F32 = 4;

// A dispatch as an op plans it: an entry point of the shader, its bindings by number (a buffer whole, or a range of
// it), and its grid of workgroups.
export interface WgslDispatch {
  entry: string;
  bindings: Partial<Record<number, GPUBufferBinding>>;
  x: number;
  y: number;
}

// A pass over arrays of `elements` as the elementwise ops name it: an entry point, the arrays it binds piece by piece,
// and small buffers it binds whole (the coefficients).
export interface WgslPass {
  entry: string;
  arrays: Partial<Record<number, GPUBuffer>>;
  whole?: Partial<Record<number, GPUBuffer>>;
}

export interface WgslWork {
  shader: WgslShader;
  // The shader's f16 form (wgsl.ts), where the op runs in f16.
  f16?: boolean;
  dispatches: WgslDispatch[];
  workgroupSize: number;
  inputs: GpuArray[];
  output: GpuArray;
  // What the implementation's line adds after the workgroups ("arrays bound in 2 pieces").
  detail?: string;
}

// One sample of `times` runs back to back: the host's time per run and, where timestamps were read, the device's.
export type WebgpuSample = (times: number) => Promise<{ hostMs: number; deviceMs: number | null }>;

interface Prepared {
  pipeline: GPUComputePipeline;
  group: GPUBindGroup;
  x: number;
  y: number;
}

// The implementation's words for arrays bound in `pieces` (nothing for one).
export const boundIn = (pieces: number): string => (pieces > 1 ? `, arrays bound in ${pieces} pieces` : '');

function cancelled(samples: number): GpuLabError {
  return new GpuLabError('CANCELLED', `The measurement was cancelled after ${samples} samples`, { samples });
}

export class WebGpuBackend {
  readonly kind = 'webgpu';
  readonly device: string;
  readonly withCopies: boolean;
  readonly gpu: WebgpuDevice;
  private readonly m: Measurement;
  private readonly ctx: MeasureContext;
  private readonly made: (GPUBuffer | GPUQuerySet)[] = [];
  private readonly fills: Promise<void>[] = [];

  private constructor(m: Measurement, ctx: MeasureContext, gpu: WebgpuDevice) {
    this.m = m;
    this.ctx = ctx;
    this.gpu = gpu;
    this.device = m.device;
    this.withCopies = 'path' in m && m.path === 'with-copies';
    if (m.peer) throw unsupported('the course’s Python code (it runs on CUDA)', m.device);
  }

  static async open(m: Measurement, ctx: MeasureContext): Promise<WebGpuBackend> {
    return new WebGpuBackend(m, ctx, await webgpuDevice(m.device));
  }

  get adapterName(): string {
    return adapterName(this.gpu.found.facts);
  }

  get limits(): GPUSupportedLimits {
    return this.gpu.device.limits;
  }

  buffer(bytes: number, usage: number, label: string): GPUBuffer {
    const limit = this.limits.maxBufferSize;
    if (bytes > limit) {
      throw new GpuLabError('SIZE_UNSUPPORTED', `${label} needs a buffer of ${bytes} bytes; ${this.device}'s adapter allows ${limit} at most (maxBufferSize)`, { device: this.device, bytes, maxBufferSize: limit });
    }
    const b = this.gpu.device.createBuffer({ size: wordBytes(bytes), usage, label });
    this.made.push(b);
    return b;
  }

  // An input filled from the seed's `slot`-th stream by the native filler, the one seeding rule of every backend.
  input(length: number, slot: number, range: { low: number; high: number } | undefined, dtype: WebgpuDtype = 'fp32', usage: number = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST): GpuArray {
    const array = new GpuArray(dtype, length, hostArray(dtype, 0), this.buffer(length * ELEMENT_BYTES[dtype], usage, 'input'));
    const native = createHostBuffer(dtype, length);
    const fill = native.fillRandomAsync(this.m.seed + slot, range).then(
      () => {
        array.host = padded(dtype, native.read());
        native.free();
      },
      (err: unknown) => {
        native.free();
        throw err;
      },
    );
    fill.catch(() => undefined);
    this.fills.push(fill);
    return array;
  }

  // An output whose every element starts as NaN on the device (0xFF bytes where the type has no NaN), so that one left
  // unwritten fails verification.
  output(length: number, dtype: WebgpuDtype = 'fp32', usage: number = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST): GpuArray {
    const host = hostArray(dtype, length);
    if (dtype === 'fp32') host.fill(Number.NaN);
    else if (dtype === 'fp16') host.fill(0x7e00);
    else host.fill(-1);
    return new GpuArray(dtype, length, host, this.buffer(host.byteLength, usage, 'output'));
  }

  // A device-only array: the unfused passes' intermediate.
  scratch(length: number): GPUBuffer {
    return this.buffer(length * F32, GPUBufferUsage.STORAGE, 'intermediate');
  }

  // A uniform buffer of f32 values (the coefficients) or u32 values (a GEMM's dimensions).
  uniform(values: readonly number[], type: 'f32' | 'u32' = 'f32'): GPUBuffer {
    const words = Math.ceil(values.length / 4) * 4;
    const data = type === 'f32' ? new Float32Array(words) : new Uint32Array(words);
    data.set(values);
    const b = this.buffer(data.byteLength, GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST, type === 'f32' ? 'coefficients' : 'dimensions');
    this.gpu.device.queue.writeBuffer(b, 0, data);
    return b;
  }

  // Elementwise passes as dispatches: each array bound in pieces the adapter can bind (maxStorageBufferBindingSize, at
  // offsets of minStorageBufferOffsetAlignment), one dispatch a piece, its grid two-dimensional past
  // maxComputeWorkgroupsPerDimension.
  elementwise(elements: number, passes: readonly WgslPass[]): { dispatches: WgslDispatch[]; pieces: number } {
    const limits = this.limits;
    const align = limits.minStorageBufferOffsetAlignment;
    const piece = Math.max(align / F32, Math.floor(limits.maxStorageBufferBindingSize / align) * (align / F32));
    const dispatches: WgslDispatch[] = [];
    for (const pass of passes) {
      for (let start = 0; start < elements; start += piece) {
        const count = Math.min(piece, elements - start);
        const bindings: Partial<Record<number, GPUBufferBinding>> = {};
        for (const [binding, buffer] of Object.entries(pass.arrays)) if (buffer) bindings[Number(binding)] = { buffer, offset: start * F32, size: count * F32 };
        for (const [binding, buffer] of Object.entries(pass.whole ?? {})) if (buffer) bindings[Number(binding)] = { buffer };
        const groups = Math.ceil(count / this.gpu.workgroupSize);
        const x = Math.min(groups, limits.maxComputeWorkgroupsPerDimension);
        dispatches.push({ entry: pass.entry, bindings, x, y: Math.ceil(groups / x) });
      }
    }
    return { dispatches, pieces: Math.ceil(elements / piece) };
  }

  // Every input's values written by the native filler (a failed fill fails the point).
  async filled(): Promise<void> {
    const fills = await Promise.allSettled(this.fills.splice(0));
    const failed = fills.find((f) => f.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;
  }

  // The pipelines and bind groups of `work`, each pipeline made once per process (or anew for a cold measurement);
  // `fresh` where one was made now.
  private async prepare(work: WgslWork): Promise<{ list: Prepared[]; fresh: boolean }> {
    const name = work.f16 ? `${work.shader}-f16` : work.shader;
    const code = wgslSource(work.shader, work.f16 === true);
    const list: Prepared[] = [];
    let fresh = false;
    const pipelines = new Map<string, GPUComputePipeline>();
    for (const d of work.dispatches) {
      let pipeline = pipelines.get(d.entry);
      if (!pipeline) {
        const made = await this.gpu.pipeline(name, code, d.entry, this.m.cold);
        fresh ||= made.fresh;
        pipeline = made.pipeline;
        pipelines.set(d.entry, pipeline);
      }
      const entries = Object.entries(d.bindings).flatMap(([binding, resource]) => (resource ? [{ binding: Number(binding), resource }] : []));
      list.push({ pipeline, group: this.gpu.device.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries }), x: d.x, y: d.y });
    }
    return { list, fresh };
  }

  private encodePasses(encoder: GPUCommandEncoder, list: readonly Prepared[], times: number, query: GPUQuerySet | null): void {
    const pass = encoder.beginComputePass(query ? { timestampWrites: { querySet: query, beginningOfPassWriteIndex: 0, endOfPassWriteIndex: 1 } } : undefined);
    for (let r = 0; r < times; r++) {
      for (const d of list) {
        pass.setPipeline(d.pipeline);
        pass.setBindGroup(0, d.group);
        pass.dispatchWorkgroups(d.x, d.y);
      }
    }
    pass.end();
  }

  // `array`'s device buffer into its host values, through `staging` (a mapped buffer), after what `encoder` holds.
  async readInto(array: GpuArray, staging: GPUBuffer, encoder: GPUCommandEncoder): Promise<void> {
    encoder.copyBufferToBuffer(array.buffer, 0, staging, 0, array.host.byteLength);
    this.gpu.device.queue.submit([encoder.finish()]);
    await this.gpu.settle(staging.mapAsync(GPUMapMode.READ));
    new Uint8Array(array.host.buffer, array.host.byteOffset, array.host.byteLength).set(new Uint8Array(staging.getMappedRange(0, array.host.byteLength)));
    staging.unmap();
  }

  // Times the dispatches (sampleMeasurement decides how many samples), then computes the verdict on the output read
  // back: nothing is reported as a time before it is checked.
  async run(work: WgslWork, verify: () => Verification | null): Promise<MeasurementResult> {
    await this.filled();
    const queue = this.gpu.device.queue;
    const setupStart = performance.now();
    const { list, fresh } = await this.prepare(work);
    let setupMs = this.m.cold ? performance.now() - setupStart : 0;
    const staging = this.buffer(work.output.host.byteLength, GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST, 'staging');
    if (!this.withCopies) for (const input of work.inputs) queue.writeBuffer(input.buffer, 0, input.host);
    queue.writeBuffer(work.output.buffer, 0, work.output.host);
    await this.gpu.settle(queue.onSubmittedWorkDone());

    const stamped = this.m.clock === 'events' && !this.withCopies && this.gpu.timestamps;
    const query = stamped ? this.gpu.device.createQuerySet({ type: 'timestamp', count: 2 }) : null;
    if (query) this.made.push(query);
    const resolved = query ? this.buffer(16, GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC, 'timestamps') : null;
    const stamps = query ? this.buffer(16, GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST, 'timestamps read') : null;
    let stampsRead = 0;
    let quantised = true;

    const sample: WebgpuSample = async (times) => {
      // A cold measurement's first sample holds its pipelines' making.
      const made = setupMs;
      setupMs = 0;
      if (this.withCopies) {
        const start = performance.now();
        for (let r = 0; r < times; r++) {
          for (const input of work.inputs) queue.writeBuffer(input.buffer, 0, input.host);
          const encoder = this.gpu.device.createCommandEncoder();
          this.encodePasses(encoder, list, 1, null);
          await this.readInto(work.output, staging, encoder);
        }
        return { hostMs: (performance.now() - start + made) / times, deviceMs: null };
      }
      const encoder = this.gpu.device.createCommandEncoder();
      this.encodePasses(encoder, list, times, query);
      if (query && resolved && stamps) {
        encoder.resolveQuerySet(query, 0, 2, resolved, 0);
        encoder.copyBufferToBuffer(resolved, 0, stamps, 0, 16);
      }
      const commands = encoder.finish();
      const start = performance.now();
      queue.submit([commands]);
      const submitted = performance.now();
      await this.gpu.settle(queue.onSubmittedWorkDone());
      const done = performance.now();
      const hostMs = ((this.m.clock === 'host-nosync' ? submitted : done) - start + made) / times;
      if (!stamps) return { hostMs, deviceMs: null };
      await this.gpu.settle(stamps.mapAsync(GPUMapMode.READ));
      const [begin = 0n, end = 0n] = new BigUint64Array(stamps.getMappedRange(0, 16).slice(0));
      stamps.unmap();
      stampsRead += 2;
      const quantum = BigInt(TIMESTAMP_QUANTUM_NS);
      quantised &&= begin % quantum === 0n && end % quantum === 0n;
      return { hostMs, deviceMs: Number(end - begin) / 1e6 / times };
    };

    const result = await this.timed(sample, this.implementation(work), !fresh || this.m.cold);
    // The test hooks' fault (device.ts) comes after the last sample: the latest a fault can come and still be this point's.
    this.gpu.injectTestFault('variant' in this.m ? this.m.variant : '', 'path' in this.m ? this.m.path : '');
    if (!this.withCopies) await this.readInto(work.output, staging, this.gpu.device.createCommandEncoder());
    // Once more after the last sample: a loss or an error that came during this point fails this point, not the next.
    await this.gpu.settle(queue.onSubmittedWorkDone());
    const clockResolution: ClockResolution = { timestamps: stampsRead === 0 ? 'none' : quantised ? 'quantised' : 'unquantised', hostMs: this.gpu.hostResolutionMs };
    return { ...result, verification: verify(), telemetry: null, clockResolution };
  }

  // `sample` in the rounds sampleMeasurement asks for: each round's warm-up (one run at least where a pipeline was
  // just made: `warm` false), then its samples, each of as many runs as fill minSampleMs.
  async timed(sample: WebgpuSample, implementation: string, warm: boolean): Promise<Omit<MeasurementResult, 'verification' | 'telemetry'>> {
    let pipelinesWarm = warm;
    const round: TakeTimedRound = async (warmup, repeats, onProgress, fixed) => {
      const runs = pipelinesWarm ? warmup : Math.max(warmup, 1);
      pipelinesWarm = true;
      let fastest = Number.POSITIVE_INFINITY;
      for (let i = 0; i < runs; i++) {
        if (this.ctx.signal.aborted) throw cancelled(0);
        fastest = Math.min(fastest, (await sample(1)).hostMs);
      }
      const sized = this.m.minSampleMs > 0 && runs > 0 && fastest > 0 ? Math.ceil(this.m.minSampleMs / fastest) : 1;
      const times = Math.min(MAX_EXECUTIONS_PER_SAMPLE, Math.max(1, fixed ?? sized));
      const hostMs: number[] = [];
      const deviceMs: number[] = [];
      for (let i = 0; i < repeats; i++) {
        if (this.ctx.signal.aborted) throw cancelled(i);
        const s = await sample(times);
        hostMs.push(s.hostMs);
        if (s.deviceMs !== null) deviceMs.push(s.deviceMs);
        onProgress(i + 1, repeats);
      }
      const device = deviceMs.length === hostMs.length ? deviceMs : null;
      return {
        // Without timestamps (a copy, an adapter without them), events are the host's clock after the work is done.
        clock: this.m.clock === 'events' && !device ? 'host' : this.m.clock,
        hostMs,
        deviceMs: device,
        sampleWallMs: hostMs.map((ms) => ms * times),
        implementation,
        threads: 0,
        executionsPerSample: times,
      };
    };
    const { rounds: taken, sampling } = await sampleMeasurement(this.m, this.ctx, round);
    return resultOf(taken, sampling);
  }

  private implementation(work: WgslWork): string {
    const found = this.gpu.found;
    const entries = [...new Set(work.dispatches.map((d) => d.entry))].join(', ');
    const type = work.f16 ? ' in f16' : '';
    const cold = this.m.cold ? ', its pipeline made anew within the first sample' : '';
    return `WGSL ${entries}${type} (${wgslPath(work.shader)}) on ${this.adapterName} through ${found.backend}, workgroups of ${work.workgroupSize}${work.detail ?? ''}${cold}`;
  }

  free(): void {
    for (const b of this.made.splice(0)) b.destroy();
  }
}
