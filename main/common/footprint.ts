// The memory one measurement holds while it runs: its operands and results, on the host and on its device, as the
// ops under main/host/ops/ allocate them (a cuBLAS or the native op's own scratch space is not counted: it is small
// beside the operands). Points run one at a time, so a run needs as much as its largest point, not their sum.
import type { GemmDtype, MeasurementInput } from './measurement.ts';

export interface Footprint {
  hostBytes: number;
  deviceBytes: number;
}

const GEMM_BYTES: Record<GemmDtype, number> = { fp64: 8, fp32: 4, tf32: 4, fp16: 2, bf16: 2, int8: 1 };

// Where `bytes` of operands live: host memory on the CPU; device memory for a resident GPU op; both where the
// copies are timed (pageable host buffers, and their device twins made by the op).
function placed(m: MeasurementInput, bytes: number): Footprint {
  if (m.device === 'cpu') return { hostBytes: bytes, deviceBytes: 0 };
  const withCopies = 'path' in m && m.path === 'with-copies';
  return { hostBytes: withCopies ? bytes : 0, deviceBytes: bytes };
}

const roundUp16 = (n: number): number => Math.ceil(n / 16) * 16;

export function measurementFootprint(m: MeasurementInput): Footprint {
  switch (m.op) {
    case 'empty':
      return { hostBytes: 0, deviceBytes: 0 };
    case 'add':
    case 'mul':
    case 'exp':
      return placed(m, (m.op === 'exp' ? 2 : 3) * m.elements * 4);
    case 'vector-function':
      return placed(m, 3 * m.elements * 8);
    case 'gemm': {
      const size = GEMM_BYTES[m.dtype];
      const out = m.dtype === 'int8' ? 4 : size;
      const bytes = (m.m * m.k + m.k * m.n) * size + m.m * m.n * out;
      const f = placed(m, bytes);
      // int8 on the GPU: operands padded to multiples of 16, B transposed, beside the originals.
      if (m.dtype === 'int8' && m.device !== 'cpu') {
        const [pm, pn, pk] = [roundUp16(m.m), roundUp16(m.n), roundUp16(m.k)];
        f.deviceBytes += pm * pk + pk * pn + pm * pn * 4;
      }
      return f;
    }
    case 'blas1':
      if (m.routine === 'saxpy') return { hostBytes: 0, deviceBytes: 3 * m.elements * 4 };
      if (m.routine === 'sum') return { hostBytes: 0, deviceBytes: m.elements * 4 + 4 };
      return { hostBytes: 0, deviceBytes: 2 * m.n * m.n * 4 };
    case 'copy':
      if (m.direction === 'd2d') return { hostBytes: 0, deviceBytes: 2 * m.bytes };
      return { hostBytes: m.bytes, deviceBytes: m.bytes };
  }
}
