// The WebGPU backend: where a measurement on "webgpu:N" keeps its arrays and how its samples are timed (the CPU's and
// CUDA's are ops/backend.ts; the sampling rule is the same function for all, sampleMeasurement). An op asks for
// seeded inputs and a poisoned output (GpuArray: the values on the host, their buffer on the device), names the WGSL
// passes to dispatch, and gets the measurement's result, checked by the same float64 reference as on the other
// devices.
//
//   resident      inputs written to the device once, before the warm-up; a sample is the passes alone.
//   with-copies   a sample is the inputs written with queue.writeBuffer, the passes, the output copied to a mapped
//                 staging buffer and read into host memory: what a program with its arrays on the host waits for.
//
// Clocks (measurement.ts CLOCK): `events` reads timestamp queries at the beginning and the end of the compute pass
// that holds the sample's dispatches, where the adapter has them (Dawn's quantisation off: dawn.ts), else the host's
// clock; `host` the host's monotonic clock from submit() to onSubmittedWorkDone() (or, with the copies, to the mapped
// output read back); `host-nosync` stops it when submit() returns. The first dispatch after a pipeline is made is
// warm-up, never a sample, whatever warm-up the measurement asks for.
import { GpuLabError } from '../../common/errors.ts';
import type { ClockResolution, Measurement, MeasurementResult, Verification } from '../../common/measurement.ts';
import { TIMESTAMP_QUANTUM_NS } from '../../common/measurement.ts';
import { adapterName } from '../../common/webgpu-adapters.ts';
import { createHostBuffer } from '../../../native/index.ts';
import { resultOf, sampleMeasurement, unsupported } from '../ops/backend.ts';
import type { MeasureContext, TakeTimedRound } from '../ops/backend.ts';
import { webgpuDevice } from './device.ts';
import type { WebgpuDevice } from './device.ts';
import { wgslPath, wgslSource } from './wgsl.ts';
import type { WgslShader } from './wgsl.ts';

// The most runs a batched sample holds (the native harness's kMaxExecutionsPerSample).
const MAX_EXECUTIONS_PER_SAMPLE = 100_000;
const F32 = 4;

// An f32 array of a measurement: its values on the host (an input's seeded values, an output as read back) and its
// buffer on the device. Reads like a native ElementBuffer for verification (host/verify.ts).
export class GpuArray {
  host: Float32Array<ArrayBuffer>;
  readonly buffer: GPUBuffer;

  constructor(host: Float32Array<ArrayBuffer>, buffer: GPUBuffer) {
    this.host = host;
    this.buffer = buffer;
  }

  get length(): number {
    return this.host.length;
  }

  toFloat64(start = 0, count = this.host.length - start): Float64Array {
    return Float64Array.from(this.host.subarray(start, start + count));
  }
}

// A pass: an entry point of the shader and its bindings by number (an array bound piece by piece, or a small buffer
// bound whole: the coefficients).
export interface WgslPass {
  entry: string;
  arrays: Partial<Record<number, GPUBuffer>>;
  whole?: Partial<Record<number, GPUBuffer>>;
}

export interface WgslWork {
  shader: WgslShader;
  elements: number;
  passes: WgslPass[];
  inputs: GpuArray[];
  output: GpuArray;
}

interface Dispatch {
  pipeline: GPUComputePipeline;
  group: GPUBindGroup;
  x: number;
  y: number;
}

function cancelled(samples: number): GpuLabError {
  return new GpuLabError('CANCELLED', `The measurement was cancelled after ${samples} samples`, { samples });
}

export class WebGpuBackend {
  readonly kind = 'webgpu';
  readonly device: string;
  readonly withCopies: boolean;
  private readonly m: Measurement;
  private readonly ctx: MeasureContext;
  private readonly gpu: WebgpuDevice;
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

  private buffer(bytes: number, usage: number, label: string): GPUBuffer {
    const limit = this.gpu.device.limits.maxBufferSize;
    if (bytes > limit) {
      throw new GpuLabError('SIZE_UNSUPPORTED', `${label} needs a buffer of ${bytes} bytes; ${this.device}'s adapter allows ${limit} at most (maxBufferSize)`, { device: this.device, bytes, maxBufferSize: limit });
    }
    const b = this.gpu.device.createBuffer({ size: Math.max(F32, Math.ceil(bytes / F32) * F32), usage, label });
    this.made.push(b);
    return b;
  }

  // An input filled from the seed's `slot`-th stream by the native filler, the one seeding rule of every backend.
  input(length: number, slot: number, range: { low: number; high: number }): GpuArray {
    const array = new GpuArray(new Float32Array(0), this.buffer(length * F32, GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST, 'input'));
    const native = createHostBuffer('fp32', length);
    const fill = native.fillRandomAsync(this.m.seed + slot, range).then(
      () => {
        const values = native.read();
        // A view where the addon's copy is a plain ArrayBuffer (as WebGPU's writeBuffer wants), else a copy.
        array.host = values.buffer instanceof ArrayBuffer ? new Float32Array(values.buffer, values.byteOffset, values.length) : new Float32Array(values);
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

  // An output whose every element starts as NaN on the device, so that one left unwritten fails verification.
  output(length: number): GpuArray {
    return new GpuArray(new Float32Array(length).fill(Number.NaN), this.buffer(length * F32, GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST, 'output'));
  }

  // A device-only array: the unfused passes' intermediate.
  scratch(length: number): GPUBuffer {
    return this.buffer(length * F32, GPUBufferUsage.STORAGE, 'intermediate');
  }

  uniform(values: readonly number[]): GPUBuffer {
    const data = new Float32Array(Math.ceil(values.length / 4) * 4);
    data.set(values);
    const b = this.buffer(data.byteLength, GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST, 'coefficients');
    this.gpu.device.queue.writeBuffer(b, 0, data);
    return b;
  }

  // The passes of `work` as dispatches: each array bound in pieces the adapter can bind (maxStorageBufferBindingSize,
  // at offsets of minStorageBufferOffsetAlignment), one dispatch a piece, its grid two-dimensional past
  // maxComputeWorkgroupsPerDimension.
  private async dispatches(work: WgslWork): Promise<{ list: Dispatch[]; fresh: boolean; pieces: number }> {
    const limits = this.gpu.device.limits;
    const align = limits.minStorageBufferOffsetAlignment;
    const piece = Math.max(align / F32, Math.floor(limits.maxStorageBufferBindingSize / align) * (align / F32));
    const code = wgslSource(work.shader);
    const list: Dispatch[] = [];
    let fresh = false;
    let pieces = 0;
    for (const pass of work.passes) {
      const { pipeline, fresh: made } = await this.gpu.pipeline(work.shader, code, pass.entry, this.m.cold);
      fresh ||= made;
      const layout = pipeline.getBindGroupLayout(0);
      pieces = Math.ceil(work.elements / piece);
      for (let start = 0; start < work.elements; start += piece) {
        const count = Math.min(piece, work.elements - start);
        const entries: GPUBindGroupEntry[] = [
          ...Object.entries(pass.arrays).flatMap(([binding, buffer]) => (buffer ? [{ binding: Number(binding), resource: { buffer, offset: start * F32, size: count * F32 } }] : [])),
          ...Object.entries(pass.whole ?? {}).flatMap(([binding, buffer]) => (buffer ? [{ binding: Number(binding), resource: { buffer } }] : [])),
        ];
        const groups = Math.ceil(count / this.gpu.workgroupSize);
        const x = Math.min(groups, limits.maxComputeWorkgroupsPerDimension);
        list.push({ pipeline, group: this.gpu.device.createBindGroup({ layout, entries }), x, y: Math.ceil(groups / x) });
      }
    }
    return { list, fresh, pieces };
  }

  private encodePasses(encoder: GPUCommandEncoder, list: readonly Dispatch[], times: number, query: GPUQuerySet | null): void {
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

  private async readInto(array: GpuArray, staging: GPUBuffer, encoder: GPUCommandEncoder): Promise<void> {
    encoder.copyBufferToBuffer(array.buffer, 0, staging, 0, array.length * F32);
    this.gpu.device.queue.submit([encoder.finish()]);
    await this.gpu.settle(staging.mapAsync(GPUMapMode.READ));
    array.host.set(new Float32Array(staging.getMappedRange(0, array.length * F32)));
    staging.unmap();
  }

  // Times the passes (sampleMeasurement decides how many samples), then computes the verdict on the output read back:
  // nothing is reported as a time before it is checked.
  async run(work: WgslWork, verify: () => Verification | null): Promise<MeasurementResult> {
    const fills = await Promise.allSettled(this.fills.splice(0));
    const failed = fills.find((f) => f.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;
    const queue = this.gpu.device.queue;
    const { list, fresh, pieces } = await this.dispatches(work);
    const staging = this.buffer(work.output.length * F32, GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST, 'staging');
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

    // One sample of `times` runs back to back: its host time and, with timestamps, its device time, per run.
    const sample = async (times: number): Promise<{ hostMs: number; deviceMs: number | null }> => {
      if (this.withCopies) {
        const start = performance.now();
        for (let r = 0; r < times; r++) {
          for (const input of work.inputs) queue.writeBuffer(input.buffer, 0, input.host);
          const encoder = this.gpu.device.createCommandEncoder();
          this.encodePasses(encoder, list, 1, null);
          await this.readInto(work.output, staging, encoder);
        }
        return { hostMs: (performance.now() - start) / times, deviceMs: null };
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
      const hostMs = ((this.m.clock === 'host-nosync' ? submitted : done) - start) / times;
      if (!stamps) return { hostMs, deviceMs: null };
      await this.gpu.settle(stamps.mapAsync(GPUMapMode.READ));
      const [begin = 0n, end = 0n] = new BigUint64Array(stamps.getMappedRange(0, 16).slice(0));
      stamps.unmap();
      stampsRead += 2;
      const quantum = BigInt(TIMESTAMP_QUANTUM_NS);
      quantised &&= begin % quantum === 0n && end % quantum === 0n;
      return { hostMs, deviceMs: Number(end - begin) / 1e6 / times };
    };

    let pipelinesWarm = !fresh || this.m.cold;
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
        // Without timestamps, events are the host's clock after the work is done.
        clock: this.m.clock === 'events' && !device ? 'host' : this.m.clock,
        hostMs,
        deviceMs: device,
        sampleWallMs: hostMs.map((ms) => ms * times),
        implementation: this.implementation(work, pieces),
        threads: 0,
        executionsPerSample: times,
      };
    };
    const { rounds: taken, sampling } = await sampleMeasurement(this.m, this.ctx, round);
    // The test hooks' fault (device.ts) comes after the last sample: the latest a fault can come and still be this point's.
    this.gpu.injectTestFault('variant' in this.m ? this.m.variant : '', 'path' in this.m ? this.m.path : '');
    if (!this.withCopies) await this.readInto(work.output, staging, this.gpu.device.createCommandEncoder());
    // Once more after the last sample: a loss or an error that came during this point fails this point, not the next.
    await this.gpu.settle(queue.onSubmittedWorkDone());
    const clockResolution: ClockResolution = { timestamps: stampsRead === 0 ? 'none' : quantised ? 'quantised' : 'unquantised', hostMs: this.gpu.hostResolutionMs };
    return { ...resultOf(taken, sampling), verification: verify(), telemetry: null, clockResolution };
  }

  private implementation(work: WgslWork, pieces: number): string {
    const found = this.gpu.found;
    const entries = work.passes.map((p) => p.entry).join(', ');
    const bound = pieces > 1 ? `, arrays bound in ${pieces} pieces` : '';
    return `WGSL ${entries} (${wgslPath(work.shader)}) on ${adapterName(found.facts)} through ${found.backend}, workgroups of ${this.gpu.workgroupSize}${bound}`;
  }

  free(): void {
    for (const b of this.made.splice(0)) b.destroy();
  }
}

