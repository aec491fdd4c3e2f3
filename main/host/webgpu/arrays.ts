// The arrays of a WebGPU measurement: each element type's host representation (f32 as Float32Array, f16 as its bit
// patterns in a Uint16Array, as the native filler writes them, bytes as an Int8Array), and an array's values on the
// host beside its buffer on the device. WebGPU writes, copies and maps whole 4-byte words only, so a host array is
// padded to a multiple of 4 bytes; its `length` is the elements the measurement counts.
export type WebgpuDtype = 'fp32' | 'fp16' | 'int8';
export type HostArray = Float32Array<ArrayBuffer> | Uint16Array<ArrayBuffer> | Int8Array<ArrayBuffer>;

export const ELEMENT_BYTES: Record<WebgpuDtype, number> = { fp32: 4, fp16: 2, int8: 1 };

// Bytes rounded up to whole 4-byte words.
export const wordBytes = (bytes: number): number => Math.max(4, Math.ceil(bytes / 4) * 4);

export function hostArray(dtype: WebgpuDtype, length: number): HostArray {
  const elements = wordBytes(length * ELEMENT_BYTES[dtype]) / ELEMENT_BYTES[dtype];
  if (dtype === 'fp32') return new Float32Array(elements);
  return dtype === 'fp16' ? new Uint16Array(elements) : new Int8Array(elements);
}

// `values` (the native filler's copy) in a padded array of the dtype.
export function padded(dtype: WebgpuDtype, values: ArrayLike<number>): HostArray {
  const out = hostArray(dtype, values.length);
  out.set(values);
  return out;
}

// An f16 bit pattern as the number it stands for (exact: every f16 is a float64).
export function halfToNumber(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exponent = (bits >> 10) & 0x1f;
  const fraction = bits & 0x3ff;
  if (exponent === 0) return sign * fraction * 2 ** -24;
  if (exponent === 0x1f) return fraction ? Number.NaN : sign * Number.POSITIVE_INFINITY;
  return sign * (1 + fraction / 1024) * 2 ** (exponent - 15);
}

// An array of a measurement: its values on the host (an input's seeded values, an output as read back) and its
// buffer on the device. Reads like a native ElementBuffer for verification (host/verify.ts).
export class GpuArray {
  readonly dtype: WebgpuDtype;
  readonly length: number;
  host: HostArray;
  readonly buffer: GPUBuffer;

  constructor(dtype: WebgpuDtype, length: number, host: HostArray, buffer: GPUBuffer) {
    this.dtype = dtype;
    this.length = length;
    this.host = host;
    this.buffer = buffer;
  }

  // The bytes the measurement moves (without the padding).
  get byteLength(): number {
    return this.length * ELEMENT_BYTES[this.dtype];
  }

  toFloat64(start = 0, count = this.length - start): Float64Array {
    const values = this.host.subarray(start, start + count);
    return this.dtype === 'fp16' ? Float64Array.from(values, halfToNumber) : Float64Array.from(values);
  }
}
