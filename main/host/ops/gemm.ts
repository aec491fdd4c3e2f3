// C = A·B for row-major m×k and k×n matrices with entries uniform in [-1, 1) (int8: the native fill's whole
// numbers): the CPU through BLAS or the built-in blocked kernel (fp32, fp64); the GPU through cuBLAS in every dtype
// (tf32 is fp32 in memory multiplied by tensor cores; int8 products sum into fp32), resident or with the copies
// timed, or the hand-written naive and tiled SGEMMs; on WebGPU the WGSL naive and tiled kernels (webgpu/gemm.ts). The float64 reference is a sampled grid of k-term dot products
// (verify.ts), checked against the dtype's tolerance, which grows with k.
import type { Measurement, MeasurementResult, Verification } from '../../common/measurement.ts';
import { poisonAsync } from '../../../native/index.ts';
import type { CpuOpSpec, DType } from '../../../native/index.ts';
import type { MeasurementBackend } from './backend.ts';
import { unsupported } from './backend.ts';
import type { WebGpuBackend } from '../webgpu/backend.ts';
import { measureGemmOnWebgpu } from '../webgpu/gemm.ts';
import { gemmTolerance, verifyGemm } from '../verify.ts';
import { hostBlas } from '../blas-host.ts';
import { libraryText, pickSummary } from '../blas-choice.ts';

type Gemm = Extract<Measurement, { op: 'gemm' }>;

export function measureGemm(m: Gemm, backend: MeasurementBackend | WebGpuBackend): Promise<MeasurementResult> {
  if (backend.kind === 'webgpu') return measureGemmOnWebgpu(m, backend);
  const tolerance = gemmTolerance(m.dtype, m.k);
  if (backend.kind === 'cpu') {
    if (m.dtype !== 'fp32' && m.dtype !== 'fp64') throw unsupported(`${m.dtype} GEMM (only fp32 and fp64)`, 'cpu');
    if (m.variant !== 'blas' && m.variant !== 'blocked') throw unsupported(`the ${m.variant} GPU GEMM`, 'cpu');
    const a = backend.input(m.dtype, m.m * m.k, 0, { low: -1, high: 1 });
    const b = backend.input(m.dtype, m.k * m.n, 1, { low: -1, high: 1 });
    const out = backend.output(m.dtype, m.m * m.n);
    const spec = { op: 'gemm', variant: m.variant, a, b, out, m: m.m, n: m.n, k: m.k, threads: m.threads } as const;
    if (m.variant === 'blocked') return backend.run(spec, () => verifyGemm(a, b, out, m.m, m.n, m.k, tolerance));
    return cpuBlasGemm(m.dtype, spec, backend, m.cold === true, () => verifyGemm(a, b, out, m.m, m.n, m.k, tolerance));
  }
  if (m.variant === 'naive' || m.variant === 'tiled') {
    if (m.dtype !== 'fp32' || backend.withCopies) throw unsupported('the hand-written GEMM kernels on anything but resident fp32 matrices', backend.device);
    const a = backend.input('fp32', m.m * m.k, 0, { low: -1, high: 1 });
    const b = backend.input('fp32', m.k * m.n, 1, { low: -1, high: 1 });
    const out = backend.output('fp32', m.m * m.n);
    return backend.run({ op: 'gemm', variant: m.variant, a, b, out, m: m.m, n: m.n, k: m.k }, () => verifyGemm(a, b, out, m.m, m.n, m.k, tolerance));
  }
  if (m.variant !== 'cublas') throw unsupported(`the CPU's ${m.variant} GEMM`, backend.device);
  const stored: DType = m.dtype === 'tf32' ? 'fp32' : m.dtype;
  const range = stored === 'int8' ? undefined : { low: -1, high: 1 };
  const a = backend.input(stored, m.m * m.k, 0, range);
  const b = backend.input(stored, m.k * m.n, 1, range);
  const out = backend.output(stored === 'int8' ? 'fp32' : stored, m.m * m.n);
  return backend.run({ op: 'gemm', variant: 'cublas', dtype: m.dtype, path: m.path, a, b, out, m: m.m, n: m.n, k: m.k }, () => verifyGemm(a, b, out, m.m, m.n, m.k, tolerance));
}

// On the library and threads measured fastest for this product's type and shape (blas-choice.ts), named with how
// they were chosen; on the system's BLAS where none was found beyond it. Where the choice is measured now, it is on
// this product's own operands (their inputs written first); its output is poisoned again after the trials, so that
// an element the chosen library leaves unwritten still fails the check. A cold point's output stays untouched (its
// first touch is what it measures): its choice is measured on operands of the chooser's own.
async function cpuBlasGemm(dtype: 'fp32' | 'fp64', spec: Extract<CpuOpSpec, { op: 'gemm' }>, backend: MeasurementBackend, cold: boolean, verify: () => Verification | null): Promise<MeasurementResult> {
  await backend.settled();
  const { a, b, out, m, n, k } = spec;
  const pick = await backend.phase('choice', async () => {
    const chosen = await (await hostBlas()).pick(dtype, { m, n, k }, spec.threads, cold ? undefined : { a, b, out, m, n, k });
    if (!cold) await poisonAsync(out);
    return chosen;
  });
  if (!pick) return backend.run(spec, verify);
  const r = await backend.run({ ...spec, library: pick.library.id, threads: pick.library.threadsSettable ? pick.threads : undefined }, verify);
  return { ...r, implementation: `${libraryText(pick.library)}; ${pickSummary(pick)}` };
}
