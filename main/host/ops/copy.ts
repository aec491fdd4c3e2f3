// A copy of `bytes` random bytes host→device, device→host or device→device, from pageable or pinned host memory,
// synchronous or asynchronous (on WebGPU, WebGPU's own copies: webgpu/copy.ts). The reference of every byte is its
// source byte.
import type { Measurement, MeasurementResult } from '../../common/measurement.ts';
import type { MeasurementBackend } from './backend.ts';
import { unsupported } from './backend.ts';
import type { WebGpuBackend } from '../webgpu/backend.ts';
import { measureCopyOnWebgpu } from '../webgpu/copy.ts';
import { verifyElementwise } from '../verify.ts';

type Copy = Extract<Measurement, { op: 'copy' }>;

export function measureCopy(m: Copy, backend: MeasurementBackend | WebGpuBackend): Promise<MeasurementResult> {
  if (backend.kind === 'webgpu') return measureCopyOnWebgpu(m, backend);
  if (backend.kind === 'cpu') throw unsupported('host↔device copies (they need a GPU)', 'cpu');
  const host = m.hostMemory === 'pinned' ? 'pinned' : 'host';
  const src = backend.input('int8', m.bytes, 0, undefined, m.direction === 'h2d' ? host : 'device');
  const dst = backend.output('int8', m.bytes, m.direction === 'd2h' ? host : 'device');
  return backend.run({ op: 'copy', mode: m.mode, src, dst }, () => verifyElementwise(dst, [src], ([v = Number.NaN]) => v, 0));
}
