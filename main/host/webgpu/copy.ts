// The transfer lab's copies on a WebGPU device, each as a program makes it and waits for it:
//
//   h2d, write-buffer  queue.writeBuffer from host memory, then onSubmittedWorkDone(): Dawn copies the bytes into
//                      memory of its own before the call returns, then onto the device.
//   h2d, mapped        an upload buffer mapped for writing (mapAsync), the bytes written into its mapped range, then
//                      unmapped and copied to the device buffer with copyBufferToBuffer.
//   d2h                copyBufferToBuffer into a staging buffer, mapAsync for reading, the mapped range copied into
//                      host memory: the only way back WebGPU has.
//   d2d                copyBufferToBuffer between two device buffers.
//
// Every copy is timed on the host's clock from its first call to the end of the wait (no timestamp query can sit
// around a copy outside a compute pass); WebGPU has no pinned memory and no copy that is not waited for here, so both
// are refused by name. The bytes come from the native filler (the seed's first stream, as on CUDA) and every byte
// the check reads must equal the byte it was copied from: the device's copy read back after the samples.
import type { Measurement, MeasurementResult } from '../../common/measurement.ts';
import { unsupported } from '../ops/backend.ts';
import { verifyElementwise } from '../verify.ts';
import { GpuArray, hostArray } from './arrays.ts';
import type { WebGpuBackend, WebgpuSample } from './backend.ts';

type Copy = Extract<Measurement, { op: 'copy' }>;

const WAYS = {
  'h2d:write-buffer': 'queue.writeBuffer',
  'h2d:mapped': 'a mapped upload buffer and copyBufferToBuffer',
  d2h: 'copyBufferToBuffer to a mapped staging buffer',
  d2d: 'copyBufferToBuffer',
} as const;

export async function measureCopyOnWebgpu(m: Copy, backend: WebGpuBackend): Promise<MeasurementResult> {
  if (m.hostMemory === 'pinned' && m.direction !== 'd2d') throw unsupported('pinned host memory (WebGPU has none)', backend.device);
  if (m.mode === 'async') throw unsupported('a copy it does not wait for (every WebGPU copy is waited for here)', backend.device);
  if (m.bytes % 4 !== 0) throw unsupported(`a copy of ${m.bytes} bytes (WebGPU copies whole 4-byte words)`, backend.device);
  const device = backend.gpu.device;
  const queue = device.queue;
  const usage = GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
  // The source: host memory for h2d, a device buffer written before the clock starts otherwise.
  const src = backend.input(m.bytes, 0, undefined, 'int8', usage);
  const dst = new GpuArray('int8', m.bytes, hostArray('int8', m.bytes).fill(-1), backend.buffer(m.bytes, usage, 'copy destination'));
  await backend.filled();
  if (m.direction !== 'h2d') queue.writeBuffer(src.buffer, 0, src.host);
  // The destination starts as 0xFF bytes: a byte the copy leaves unwritten differs from its source wherever the source
  // byte is not 0xFF (the filler's bytes are −8 … 7).
  if (m.direction !== 'd2h') queue.writeBuffer(dst.buffer, 0, dst.host);
  await backend.gpu.settle(queue.onSubmittedWorkDone());
  const mapped = m.direction === 'h2d' && m.upload === 'mapped' ? backend.buffer(m.bytes, GPUBufferUsage.MAP_WRITE | GPUBufferUsage.COPY_SRC, 'upload') : null;
  const staging = backend.buffer(m.bytes, GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST, 'staging');

  const once = async (): Promise<void> => {
    if (m.direction === 'h2d' && !mapped) {
      queue.writeBuffer(dst.buffer, 0, src.host);
      // Dawn holds a written buffer's copy until the next submission: an empty one sends it, so that the wait below
      // covers it.
      queue.submit([]);
      await backend.gpu.settle(queue.onSubmittedWorkDone());
      return;
    }
    const encoder = device.createCommandEncoder();
    if (mapped) {
      await backend.gpu.settle(mapped.mapAsync(GPUMapMode.WRITE));
      new Int8Array(mapped.getMappedRange(0, m.bytes)).set(src.host.subarray(0, m.bytes));
      mapped.unmap();
      encoder.copyBufferToBuffer(mapped, 0, dst.buffer, 0, m.bytes);
    } else {
      encoder.copyBufferToBuffer(src.buffer, 0, m.direction === 'd2h' ? staging : dst.buffer, 0, m.bytes);
    }
    queue.submit([encoder.finish()]);
    if (m.direction !== 'd2h') {
      await backend.gpu.settle(queue.onSubmittedWorkDone());
      return;
    }
    await backend.gpu.settle(staging.mapAsync(GPUMapMode.READ));
    dst.host.set(new Int8Array(staging.getMappedRange(0, m.bytes)));
    staging.unmap();
  };
  const sample: WebgpuSample = async (times) => {
    const start = performance.now();
    for (let r = 0; r < times; r++) await once();
    return { hostMs: (performance.now() - start) / times, deviceMs: null };
  };
  const way = m.direction === 'h2d' ? WAYS[`h2d:${m.upload ?? 'write-buffer'}`] : WAYS[m.direction];
  const found = backend.gpu.found;
  const result = await backend.timed(sample, `${way}, ${m.bytes} bytes, on ${backend.adapterName} through ${found.backend}`, true);
  // What reached the device, read back; device→host already wrote the host's copy.
  if (m.direction !== 'd2h') await backend.readInto(dst, staging, device.createCommandEncoder());
  const verification = verifyElementwise(dst, [src], ([v = Number.NaN]) => v, 0);
  return { ...result, verification, telemetry: null, clockResolution: { timestamps: 'none', hostMs: backend.gpu.hostResolutionMs } };
}
