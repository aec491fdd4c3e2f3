// The playground's check on the GPU (native/cuda/verify_output.cu): a kernel's output compared, every element, with a
// float64 reference computed on the device, in reduction kernels that send back only the counts, the first wrong
// index, the largest relative error and a window of elements from the first wrong one. Arguments are checked here.
import { GpuLabError } from '../main/common/errors.ts';
import { loadAddon } from './addon.ts';
import type { RawBuffer } from './addon.ts';
import type { ElementBuffer } from './buffers.ts';
import { finiteNumber, integerIn, invalid } from './validate.ts';

export type DeviceCheck =
  // out = a·x + y, in float64 from the inputs' values
  | { kind: 'saxpy'; out: ElementBuffer; x: ElementBuffer; y: ElementBuffer; a: number; relative: number }
  // out = a·x² + b·y + c
  | { kind: 'polynomial'; out: ElementBuffer; x: ElementBuffer; y: ElementBuffer; a: number; b: number; c: number; relative: number }
  // out = inᵀ, in rows × cols, exactly
  | { kind: 'transpose'; out: ElementBuffer; input: ElementBuffer; rows: number; cols: number }
  // out = A·B (fp32, row-major), against cuBLAS's DGEMM of the inputs widened to float64, within relative × RMS
  | { kind: 'gemm'; out: ElementBuffer; a: ElementBuffer; b: ElementBuffer; m: number; n: number; k: number; relative: number }
  // out[0] = the total of x, exactly (whole numbers: every partial sum is exact in float64)
  | { kind: 'sum'; out: ElementBuffer; x: ElementBuffer };

export interface DeviceCheckResult {
  total: number;
  wrong: number;
  unwritten: number;
  // -1 where every element is within its tolerance.
  firstBad: number;
  // null where some element's relative error is not a finite number (a NaN written, or a miss of an expected 0).
  maxRelativeError: number | null;
  // The reference's root mean square.
  rms: number;
  // Up to 64 elements from the first wrong one (from 0 where only never-written ones were found), judged by the
  // same rule; empty where nothing is wrong.
  window: { start: number; got: Float64Array; expected: Float64Array; bad: Uint8Array; unwritten: Uint8Array };
}

interface RawVerifyAddon {
  verifyOnDevice(spec: Record<string, unknown>): Promise<DeviceCheckResult>;
}

function deviceBuffer(name: string, b: ElementBuffer): RawBuffer {
  if (b.location !== 'device') throw invalid(name, 'a device buffer', `a ${b.location} buffer`);
  return b.live(name);
}

export function verifyOnDevice(check: DeviceCheck): Promise<DeviceCheckResult> {
  const addon = loadAddon();
  if (!addon.buildInfo().cuda || typeof addon.verifyOnDevice !== 'function') {
    return Promise.reject(new GpuLabError('CUDA_UNAVAILABLE', 'Cannot check an output on the GPU: this addon was built without CUDA'));
  }
  const raw = addon as unknown as RawVerifyAddon;
  const out = deviceBuffer('out', check.out);
  switch (check.kind) {
    case 'saxpy':
      return raw.verifyOnDevice({ kind: 'saxpy', out, x: deviceBuffer('x', check.x), y: deviceBuffer('y', check.y), a: finiteNumber('a', check.a), relative: finiteNumber('relative', check.relative) });
    case 'polynomial':
      return raw.verifyOnDevice({ kind: 'polynomial', out, x: deviceBuffer('x', check.x), y: deviceBuffer('y', check.y), a: finiteNumber('a', check.a), b: finiteNumber('b', check.b), c: finiteNumber('c', check.c), relative: finiteNumber('relative', check.relative) });
    case 'transpose':
      return raw.verifyOnDevice({ kind: 'transpose', out, x: deviceBuffer('input', check.input), rows: integerIn('rows', check.rows, 1, 2 ** 31 - 1, 'a positive integer'), cols: integerIn('cols', check.cols, 1, 2 ** 31 - 1, 'a positive integer'), relative: 0 });
    case 'sum':
      return raw.verifyOnDevice({ kind: 'sum', out, x: deviceBuffer('x', check.x), relative: 0 });
    case 'gemm':
      return raw.verifyOnDevice({ kind: 'gemm', out, x: deviceBuffer('a', check.a), y: deviceBuffer('b', check.b), m: integerIn('m', check.m, 1, 2 ** 31 - 1, 'a positive integer'), n: integerIn('n', check.n, 1, 2 ** 31 - 1, 'a positive integer'), k: integerIn('k', check.k, 1, 2 ** 31 - 1, 'a positive integer'), relative: finiteNumber('relative', check.relative) });
  }
}
