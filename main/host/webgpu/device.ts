// A WebGPU device of one adapter, opened the first time a measurement needs it and then held, as the instance is,
// for the life of the compute host. It is asked for the adapter's own limits where the measurements need more than
// WebGPU's defaults (buffers of gigabytes, bindings as large as the adapter allows, the adapter's workgroup size) and
// for timestamp queries and WGSL's f16 where the adapter has them.
//
// A device lost, or an error WebGPU reports outside any error scope (an uncaptured error: validation, out of
// memory, internal), leaves the device untrusted: the measurement in progress fails with WebGPU's own message, marked
// sticky, and the compute host answers and ends itself (host-main.ts), so that the next request gets a fresh process
// and a fresh device, and nothing but this host restarts.
import { GpuLabError } from '../../common/errors.ts';
import { TEST_HOOKS_ENV } from '../../common/host-protocol.ts';
import { summarize } from '../../common/pure/statistics.ts';
import { adapterName } from '../../common/webgpu-adapters.ts';
import { webgpuAdapters } from './dawn.ts';
import type { FoundAdapter } from './dawn.ts';

// With the test hooks on: "lost" destroys the device after a measurement's last sample, "error" makes WebGPU report a
// validation error there, so that a test sees what a real loss or error does; "lost:unfused" or "error:with-copies"
// does it only to measurements of that variant or path, so that a run's other points show what comes after.
export const TEST_WEBGPU_FAULT_ENV = 'GPU_LAB_TEST_WEBGPU_FAULT';

// Workgroups of 256 invocations, or fewer where the adapter allows fewer.
const WORKGROUP = 256;
// Empty submissions timed to learn how fine the host's clock around onSubmittedWorkDone() can be.
const RESOLUTION_PROBES = 21;

const ERROR_KINDS: Record<string, string> = { GPUValidationError: 'validation', GPUOutOfMemoryError: 'out of memory', GPUInternalError: 'internal' };

export interface Pipeline {
  pipeline: GPUComputePipeline;
  // Made by this call: its first dispatch is warm-up.
  fresh: boolean;
}

export class WebgpuDevice {
  readonly id: string;
  readonly found: FoundAdapter;
  readonly device: GPUDevice;
  readonly timestamps: boolean;
  // WGSL's f16 type (the `shader-f16` feature).
  readonly f16: boolean;
  readonly workgroupSize: number;
  // The median round trip of an empty submission, in ms: the host clock's resolution around onSubmittedWorkDone().
  hostResolutionMs = 0;
  private failure: GpuLabError | null = null;
  private readonly lost: Promise<never>;
  private readonly pipelines = new Map<string, GPUComputePipeline>();
  private coldPipelines = 0;

  private constructor(found: FoundAdapter, device: GPUDevice) {
    this.id = found.id;
    this.found = found;
    this.device = device;
    this.timestamps = device.features.has('timestamp-query');
    this.f16 = device.features.has('shader-f16');
    this.workgroupSize = Math.min(WORKGROUP, device.limits.maxComputeWorkgroupSizeX, device.limits.maxComputeInvocationsPerWorkgroup);
    const name = `${found.id} (${adapterName(found.facts)}, ${found.backend})`;
    this.lost = device.lost.then((info) => {
      const error = new GpuLabError('DEVICE_LOST', `The WebGPU device ${name} was lost (${info.reason}): ${info.message || 'no reason given'}`, { device: found.id, reason: info.reason, sticky: true });
      this.failure ??= error;
      opened.delete(found.id);
      throw error;
    });
    this.lost.catch(() => undefined);
    device.addEventListener('uncapturederror', (event) => {
      const e = (event as GPUUncapturedErrorEvent).error;
      const kind = ERROR_KINDS[e.constructor.name] ?? 'unknown';
      this.failure ??= new GpuLabError('WEBGPU_ERROR', `WebGPU reported an error on ${name} (${kind}): ${e.message.trim()}`, { device: found.id, kind, sticky: true });
    });
  }

  static async open(found: FoundAdapter): Promise<WebgpuDevice> {
    const a = found.adapter;
    const requiredFeatures = (['timestamp-query', 'shader-f16'] as const).filter((f) => a.features.has(f));
    const requiredLimits = {
      maxBufferSize: a.limits.maxBufferSize,
      maxStorageBufferBindingSize: a.limits.maxStorageBufferBindingSize,
      maxComputeWorkgroupSizeX: a.limits.maxComputeWorkgroupSizeX,
      maxComputeInvocationsPerWorkgroup: a.limits.maxComputeInvocationsPerWorkgroup,
    };
    let device: GPUDevice;
    try {
      device = await a.requestDevice({ requiredFeatures, requiredLimits, label: `GPU Lab ${found.id}` });
    } catch (err) {
      throw new GpuLabError('DEVICE_LOST', `The WebGPU adapter ${found.id} (${adapterName(found.facts)}) gave no device: ${(err as Error).message}`, { device: found.id });
    }
    const opened = new WebgpuDevice(found, device);
    opened.hostResolutionMs = await opened.emptyRoundTripMs();
    return opened;
  }

  private async emptyRoundTripMs(): Promise<number> {
    const times: number[] = [];
    for (let i = 0; i < RESOLUTION_PROBES; i++) {
      const start = performance.now();
      this.device.queue.submit([]);
      await this.settle(this.device.queue.onSubmittedWorkDone());
      times.push(performance.now() - start);
    }
    return summarize(times).median;
  }

  // Throws the loss or the uncaptured error, if one came.
  check(): void {
    if (this.failure) throw this.failure;
  }

  // `work`, unless the device is lost first; then whatever error came meanwhile.
  async settle<T>(work: Promise<T>): Promise<T> {
    const value = await Promise.race([work, this.lost]);
    // Uncaptured errors arrive as events on the way back from Dawn: one turn of the event loop lets them in.
    await new Promise((resolve) => setImmediate(resolve));
    this.check();
    return value;
  }

  // A compute pipeline of `entry` in `code`, made once per process and then reused; `fresh` where this call made it.
  // `cold`: made anew and not kept, so that a cold measurement's first dispatch is its pipeline's first. Dawn hands
  // back the pipeline it already holds for the same source, so a cold one's source ends in a comment of its own.
  async pipeline(shader: string, code: string, entry: string, cold = false): Promise<Pipeline> {
    const key = `${shader}:${entry}`;
    const kept = cold ? undefined : this.pipelines.get(key);
    if (kept) return { pipeline: kept, fresh: false };
    const source = cold ? `${code}\n// cold pipeline ${++this.coldPipelines}\n` : code;
    const module = this.device.createShaderModule({ code: source, label: shader });
    // The workgroup size where the shader leaves it to the host (an `override WORKGROUP`); the GEMM's is fixed.
    const constants: Record<string, number> = /\boverride WORKGROUP\b/.test(code) ? { WORKGROUP: this.workgroupSize } : {};
    const pipeline = await this.settle(this.device.createComputePipelineAsync({ layout: 'auto', label: key, compute: { module, entryPoint: entry, constants } }));
    if (!cold) this.pipelines.set(key, pipeline);
    return { pipeline, fresh: true };
  }

  // The test hooks' fault, where one is asked for (TEST_WEBGPU_FAULT_ENV).
  injectTestFault(variant: string, path: string): void {
    if (process.env[TEST_HOOKS_ENV] !== '1') return;
    const [fault, only] = (process.env[TEST_WEBGPU_FAULT_ENV] ?? '').split(':');
    if (only !== undefined && only !== variant && only !== path) return;
    if (fault === 'lost') this.device.destroy();
    // A buffer both mappable for reading and usable as storage: WebGPU refuses the pair.
    if (fault === 'error') this.device.createBuffer({ size: 4, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.STORAGE });
  }
}

const opened = new Map<string, Promise<WebgpuDevice>>();

// The device of adapter `id` ("webgpu:0"), opened once; INVALID_ARGUMENT naming the adapters there are otherwise.
export async function webgpuDevice(id: string): Promise<WebgpuDevice> {
  const { adapters, reason } = await webgpuAdapters();
  const found = adapters.find((a) => a.id === id);
  if (!found) {
    const there = adapters.length ? adapters.map((a) => a.id).join(', ') : `none (${reason ?? 'no WebGPU adapter'})`;
    throw new GpuLabError('INVALID_ARGUMENT', `There is no WebGPU adapter "${id}" on this machine; its adapters are ${there}`, { device: id });
  }
  let device = opened.get(id);
  if (!device) {
    device = WebgpuDevice.open(found);
    opened.set(id, device);
    device.catch(() => opened.delete(id));
  }
  return device;
}
