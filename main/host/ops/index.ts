// One measuring path for every backend: the measurement is validated (common/measurement.ts), its backend made
// (the CPU, a CUDA device, or a WebGPU adapter: host/webgpu/backend.ts), and the op that owns it measures, verifies
// and frees. One file per op.
import type { Measurement, MeasurementResult } from '../../common/measurement.ts';
import { isWebgpuDevice } from '../../common/measurement.ts';
import { MeasurementBackend, unsupported } from './backend.ts';
import { WebGpuBackend } from '../webgpu/backend.ts';
import type { MeasureContext } from './backend.ts';
import { measureBlas1 } from './blas1.ts';
import { measureCopy } from './copy.ts';
import { measureElementwise } from './elementwise.ts';
import { measureEmpty } from './empty.ts';
import { measureGemm } from './gemm.ts';
import { measurePeer } from './peer.ts';
import { measureVectorFunction } from './vector-function.ts';

export type { MeasureContext } from './backend.ts';

// WebGPU runs the elementwise ops, the vector function, the GEMM and the copies (ops/elementwise.ts,
// ops/vector-function.ts, webgpu/gemm.ts, webgpu/copy.ts); the rest waits for its WGSL.
async function measureOnWebgpu(m: Measurement, ctx: MeasureContext): Promise<MeasurementResult> {
  if (m.op !== 'add' && m.op !== 'mul' && m.op !== 'exp' && m.op !== 'vector-function' && m.op !== 'gemm' && m.op !== 'copy') throw unsupported(`the ${m.op} operation`, m.device);
  const backend = await WebGpuBackend.open(m, ctx);
  try {
    if (m.op === 'gemm') return await measureGemm(m, backend);
    if (m.op === 'copy') return await measureCopy(m, backend);
    return m.op === 'vector-function' ? await measureVectorFunction(m, backend) : await measureElementwise(m, backend);
  } finally {
    backend.free();
  }
}

export async function measure(m: Measurement, ctx: MeasureContext): Promise<MeasurementResult> {
  if (isWebgpuDevice(m.device)) return measureOnWebgpu(m, ctx);
  const backend = new MeasurementBackend(m, ctx);
  try {
    // The course's own code in Python, where the plan asks for it (python-worker.ts).
    if (m.peer) return await measurePeer({ ...m, peer: m.peer }, backend, ctx);
    switch (m.op) {
      case 'empty':
        return await measureEmpty(m, backend);
      case 'add':
      case 'mul':
      case 'exp':
        return await measureElementwise(m, backend);
      case 'vector-function':
        return await measureVectorFunction(m, backend);
      case 'gemm':
        return await measureGemm(m, backend);
      case 'blas1':
        return await measureBlas1(m, backend);
      case 'copy':
        return await measureCopy(m, backend);
      // A network in PyTorch: the Python worker's alone.
      case 'text-to-image':
        throw unsupported('the text-to-image workload without its PyTorch peer', backend.device);
    }
  } finally {
    backend.free();
  }
}
