// The memory one measurement holds while it runs: its operands and results, on the host and on its device, as the
// ops under main/host/ops/ allocate them (a cuBLAS or the native op's own scratch space is not counted: it is small
// beside the operands). Points run one at a time, so a run needs as much as its largest point, not their sum.
import type { GemmDtype, MeasurementInput } from './measurement.ts';
import { UNET_CHANNELS, clipTextParameters, unetParameters } from './unet-work.ts';

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
    case 'text-to-image':
      return textToImageFootprint(m);
  }
}

// The text-to-image lab's estimate (python/gpu_lab_peers/labs/text_to_image.py): the worker keeps both networks' float32
// weights on the host, and widens the U-Net's to float64 in place once for the run's reference; a GPU point holds a
// copy of the network it runs in its type. Activations: about 40 feature maps of 320 channels at the latents' size
// for each latent row (the skip connections kept for the way up, and the layer at work), doubled by guidance; the
// GPU's attention runs in fused kernels that keep no table of scores.
function textToImageFootprint(m: Extract<MeasurementInput, { op: 'text-to-image' }>): Footprint {
  const dtypeBytes = m.dtype === 'fp16' ? 2 : 4;
  const unet = unetParameters();
  const text = clipTextParameters();
  const rows = 2 * m.batch;
  const activations = rows * 40 * UNET_CHANNELS[0] * m.latent * m.latent;
  const hostBytes = unet * 8 + text * 4 + activations * 8;
  if (m.device === 'cpu') return { hostBytes, deviceBytes: 0 };
  return { hostBytes, deviceBytes: (m.stage === 'unet' ? unet : text) * dtypeBytes + activations * dtypeBytes };
}
