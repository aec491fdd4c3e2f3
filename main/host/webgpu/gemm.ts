// C = A·B on a WebGPU device: the naive and tiled kernels of shaders/wgsl/gemm.wgsl, in f32, or in f16 where the
// adapter has `shader-f16`; resident, or with the copies timed. Inputs uniform in [-1, 1) from the native filler (in
// f16 its f16 values), checked as on CUDA: a sampled grid of k-term dot products in float64 against the dtype's
// tolerance (verify.ts). cuBLAS and the other types are CUDA's, and refused here by name.
//
// A storage binding holds at most maxStorageBufferBindingSize bytes: where a matrix is larger, A and C are bound in
// bands of rows and B in bands of its rows (K), one dispatch per pair, the later bands of K adding to C (the
// shader's `accumulate`). A band starts at a multiple of minStorageBufferOffsetAlignment.
import { GpuLabError } from '../../common/errors.ts';
import type { Measurement, MeasurementResult } from '../../common/measurement.ts';
import { unsupported } from '../ops/backend.ts';
import { gemmTolerance, verifyGemm } from '../verify.ts';
import { ELEMENT_BYTES, wordBytes } from './arrays.ts';
import type { WebGpuBackend, WgslDispatch } from './backend.ts';

type Gemm = Extract<Measurement, { op: 'gemm' }>;

// Invocations a workgroup of either kernel holds, and the edge of C one covers: 16 × 16 invocations, one element
// each (naive) or 4 × 4 each (tiled).
const WORKGROUP = 256;
const EDGE = { naive: 16, tiled: 64 } as const;

export interface Band {
  start: number;
  count: number;
}

const gcd = (x: number, y: number): number => (y === 0 ? x : gcd(y, x % y));
const lcm = (x: number, y: number): number => (x / gcd(x, y)) * y;
// The fewest rows of `rowBytes` whose bytes are a multiple of `align`.
const rowsAligned = (rowBytes: number, align: number): number => align / gcd(align, rowBytes);

function bands(total: number, most: number): Band[] {
  const out: Band[] = [];
  for (let start = 0; start < total; start += most) out.push({ start, count: Math.min(most, total - start) });
  return out;
}

// The bands of rows of A and C and of rows of B that fit a binding of `limit` bytes;
// SIZE_UNSUPPORTED where not even one aligned row fits.
export function gemmBands(d: { m: number; n: number; k: number }, elementBytes: number, limit: number, align: number, device: string): { rows: Band[]; depth: Band[] } {
  const aRow = d.k * elementBytes;
  const cRow = d.n * elementBytes;
  const rowStep = lcm(rowsAligned(aRow, align), rowsAligned(cRow, align));
  const rowsFit = d.m * Math.max(aRow, cRow) <= limit ? d.m : Math.floor(Math.floor(limit / Math.max(aRow, cRow)) / rowStep) * rowStep;
  const depthStep = rowsAligned(cRow, align);
  const depthFits = d.k * cRow <= limit ? d.k : Math.floor(Math.floor(limit / cRow) / depthStep) * depthStep;
  if (rowsFit === 0 || depthFits === 0) {
    throw new GpuLabError('SIZE_UNSUPPORTED', `A ${d.m}×${d.k} by ${d.k}×${d.n} product cannot be bound on ${device}: not even ${Math.max(rowStep, depthStep)} rows of its matrices fit its adapter's maxStorageBufferBindingSize of ${limit} bytes`, { device, maxStorageBufferBindingSize: limit });
  }
  return { rows: bands(d.m, rowsFit), depth: bands(d.k, depthFits) };
}

export function measureGemmOnWebgpu(m: Gemm, backend: WebGpuBackend): Promise<MeasurementResult> {
  if (m.variant === 'cublas') throw unsupported('cuBLAS (NVIDIA’s library, for CUDA only)', backend.device);
  if (m.variant !== 'naive' && m.variant !== 'tiled') throw unsupported(`the CPU's ${m.variant} GEMM`, backend.device);
  if (m.dtype !== 'fp32' && m.dtype !== 'fp16') throw unsupported(`${m.dtype} GEMM (WGSL has f32 and f16 only)`, backend.device);
  if (m.dtype === 'fp16' && !backend.gpu.f16) throw unsupported('f16 (its adapter lacks the shader-f16 feature)', backend.device);
  const limits = backend.limits;
  if (limits.maxComputeInvocationsPerWorkgroup < WORKGROUP || limits.maxComputeWorkgroupSizeX < WORKGROUP) {
    throw unsupported(`the GEMM kernels' workgroups of ${WORKGROUP} invocations (its adapter allows ${Math.min(limits.maxComputeInvocationsPerWorkgroup, limits.maxComputeWorkgroupSizeX)})`, backend.device);
  }
  const dtype = m.dtype;
  const eb = ELEMENT_BYTES[dtype];
  const { rows, depth } = gemmBands(m, eb, limits.maxStorageBufferBindingSize, limits.minStorageBufferOffsetAlignment, backend.device);
  const a = backend.input(m.m * m.k, 0, { low: -1, high: 1 }, dtype);
  const b = backend.input(m.k * m.n, 1, { low: -1, high: 1 }, dtype);
  const c = backend.output(m.m * m.n, dtype);
  const edge = EDGE[m.variant];
  const dispatches: WgslDispatch[] = rows.flatMap((r) =>
    depth.map((kb, i): WgslDispatch => ({
      entry: m.variant,
      bindings: {
        0: { buffer: a.buffer, offset: r.start * m.k * eb, size: wordBytes(r.count * m.k * eb) },
        1: { buffer: b.buffer, offset: kb.start * m.n * eb, size: wordBytes(kb.count * m.n * eb) },
        2: { buffer: c.buffer, offset: r.start * m.n * eb, size: wordBytes(r.count * m.n * eb) },
        3: { buffer: backend.uniform([r.count, m.n, m.k, kb.start, kb.count, i > 0 ? 1 : 0], 'u32') },
      },
      x: Math.ceil(m.n / edge),
      y: Math.ceil(r.count / edge),
    })),
  );
  const split = [...(rows.length > 1 ? [`, A and C bound in ${rows.length} bands of rows`] : []), ...(depth.length > 1 ? [`, B in ${depth.length} bands of rows (K)`] : [])].join('');
  const tolerance = gemmTolerance(dtype, m.k);
  return backend.run({ shader: 'gemm', f16: dtype === 'fp16', dispatches, workgroupSize: WORKGROUP, inputs: [a, b], output: c, detail: split }, () => verifyGemm(a, b, c, m.m, m.n, m.k, tolerance));
}
