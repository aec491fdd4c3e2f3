// Buffers of one dtype in host, pinned host or device memory, filled with seeded random values.
import { GpuLabError } from '../main/common/errors.ts';
import { DTYPES } from '../main/common/measurement.ts';
import { loadAddon } from './addon.ts';
import type { DType, Location, RawBuffer } from './addon.ts';
import { finiteNumber, integerIn, invalid, oneOf, positiveInteger } from './validate.ts';

export { DTYPES };

export const DTYPE_BYTES: Record<DType, number> = { fp64: 8, fp32: 4, fp16: 2, bf16: 2, int8: 1 };

// The most elements one toFloat64At() gathers (the addon's kMaxGatheredElements, native/src/buffer.h).
export const MAX_GATHERED_ELEMENTS = 1 << 20;

export type TypedArrayOf<D extends DType> = D extends 'fp64'
  ? Float64Array
  : D extends 'fp32'
    ? Float32Array
    : D extends 'int8'
      ? Int8Array
      : Uint16Array;

const TYPED_ARRAY_OF: Record<DType, string> = {
  fp64: 'Float64Array',
  fp32: 'Float32Array',
  fp16: 'Uint16Array (fp16 bit patterns)',
  bf16: 'Uint16Array (bf16 bit patterns)',
  int8: 'Int8Array',
};

function matchesDtype(data: unknown, dtype: DType): data is ArrayBufferView {
  switch (dtype) {
    case 'fp64': return data instanceof Float64Array;
    case 'fp32': return data instanceof Float32Array;
    case 'fp16':
    case 'bf16': return data instanceof Uint16Array;
    case 'int8': return data instanceof Int8Array;
  }
}

export interface FillRange {
  low: number;
  high: number;
}

// Default fill ranges: values a user would recognise as random, never zeros.
const DEFAULT_RANGE: Record<DType, FillRange> = {
  fp64: { low: 0, high: 1 },
  fp32: { low: 0, high: 1 },
  fp16: { low: 0, high: 1 },
  bf16: { low: 0, high: 1 },
  int8: { low: -8, high: 8 },
};

export class ElementBuffer<D extends DType = DType> {
  readonly raw: RawBuffer;

  constructor(raw: RawBuffer) {
    this.raw = raw;
  }

  get dtype(): D { return this.raw.dtype as D; }
  get length(): number { return this.raw.length; }
  get byteLength(): number { return this.raw.byteLength; }
  get location(): Location { return this.raw.location; }
  // CUDA ordinal of device (and pinned) memory; -1 for pageable host memory.
  get device(): number { return this.raw.device; }
  get freed(): boolean { return this.raw.freed; }

  // The handle for passing to native code; throws BUFFER_FREED naming `name` when free() was called.
  live(name: string): RawBuffer {
    if (this.raw.freed) throw new GpuLabError('BUFFER_FREED', `The buffer passed as \`${name}\` was freed`, { argument: name });
    return this.raw;
  }

  // Uniform values in [low, high) for floats, integers in [low, high] for int8. Element i depends only on (seed, i),
  // so two buffers of the same dtype filled with one seed hold the same values, host or device.
  fillRandom(seed: number, range: FillRange = DEFAULT_RANGE[this.dtype]): this {
    const [low, high] = this.fillArgs(seed, range);
    this.live('this').fill(seed, low, high);
    return this;
  }

  // fillRandom()'s values, written off the JS thread where the buffer is in host memory (gigabytes of pages touched
  // for the first time take seconds); device memory is filled by the GPU, as fillRandom() does.
  async fillRandomAsync(seed: number, range: FillRange = DEFAULT_RANGE[this.dtype]): Promise<this> {
    const [low, high] = this.fillArgs(seed, range);
    const raw = this.live('this');
    if (this.location === 'device') {
      raw.fill(seed, low, high);
      return this;
    }
    try {
      await raw.fillAsync(seed, low, high);
    } catch (err) {
      throw GpuLabError.from(err);
    }
    return this;
  }

  private fillArgs(seed: number, range: FillRange): [number, number] {
    integerIn('seed', seed, 0, Number.MAX_SAFE_INTEGER, 'a non-negative integer');
    const low = finiteNumber('range.low', range.low);
    const high = finiteNumber('range.high', range.high);
    if (!(high > low)) throw invalid('range.high', `a number greater than range.low (${low})`, high);
    if (this.dtype === 'int8' && (low < -128 || high > 127)) {
      throw invalid('range', 'bounds within -128 … 127 for int8', `${low} … ${high}`);
    }
    if (this.dtype === 'int8' && Math.ceil(low) > Math.floor(high)) {
      throw invalid('range', 'an int8 range holding at least one integer', `${low} … ${high}`);
    }
    return [low, high];
  }

  private range(start: unknown, count: unknown): [number, number] {
    const s = integerIn('start', start, 0, this.length, `an integer from 0 to ${this.length}`);
    const c = count === undefined ? this.length - s : integerIn('count', count, 0, this.length - s, `an integer from 0 to ${this.length - s}`);
    return [s, c];
  }

  // A copy of elements [start, start + count) in the buffer's own representation.
  read(start = 0, count?: number): TypedArrayOf<D> {
    const [s, c] = this.range(start, count);
    fitsInHostMemory(c * DTYPE_BYTES[this.dtype], 'read');
    return this.live('this').read(s, c) as TypedArrayOf<D>;
  }

  // A copy of elements [start, start + count) decoded to float64 (fp16 and bf16 widened exactly).
  toFloat64(start = 0, count?: number): Float64Array {
    const [s, c] = this.range(start, count);
    // The decoded copy and, for device memory, the raw bytes brought back first.
    fitsInHostMemory(c * (8 + (this.location === 'device' ? DTYPE_BYTES[this.dtype] : 0)), 'toFloat64');
    return this.live('this').readFloat64(s, c);
  }

  // The elements at `indices` (any order, repeats allowed) decoded to float64, as toFloat64 decodes them. A device
  // buffer's are gathered on the GPU and come back in one copy, where toFloat64 of each scattered one is a synchronous
  // copy of its own (some 13 µs apiece on an H200's host). At most MAX_GATHERED_ELEMENTS indices a call.
  toFloat64At(indices: ArrayLike<number>): Float64Array {
    if (indices.length > MAX_GATHERED_ELEMENTS) throw invalid('indices', `at most ${MAX_GATHERED_ELEMENTS} indices`, `${indices.length} indices`, 'SIZE_UNSUPPORTED');
    const at = indices instanceof Float64Array ? indices : Float64Array.from(indices);
    for (let i = 0; i < at.length; i++) {
      const index = at[i] ?? Number.NaN;
      if (!Number.isInteger(index) || index < 0 || index >= this.length) throw invalid(`indices[${i}]`, `an element index from 0 to ${this.length - 1}`, index);
    }
    return this.live('this').readFloat64At(at);
  }

  write(data: TypedArrayOf<D>, start = 0): this {
    if (!matchesDtype(data, this.dtype)) throw invalid('data', `a ${TYPED_ARRAY_OF[this.dtype]} for a ${this.dtype} buffer`, data, 'DTYPE_MISMATCH');
    integerIn('start', start, 0, this.length, `an integer from 0 to ${this.length}`);
    if (start + data.length > this.length) {
      throw new GpuLabError('LENGTH_MISMATCH', `Expected at most ${this.length - start} elements for \`data\` at start ${start} but received ${data.length}`, { argument: 'data' });
    }
    this.live('this').write(data, start);
    return this;
  }

  // Releases the memory now (it would go at garbage collection otherwise). Using the buffer afterwards throws
  // BUFFER_FREED; a measurement still running on it keeps the memory until it ends.
  free(): void {
    this.raw.free();
  }
}

// V8 aborts the process, rather than throwing, when an ArrayBuffer made by native code cannot be allocated: a copy
// that would not fit in the memory the system has available is refused here first.
function fitsInHostMemory(bytes: number, method: string): void {
  if (bytes < 64 << 20) return;
  const available = loadAddon().cpuInfo().memoryAvailableBytes;
  if (available > 0 && bytes > available) {
    throw new GpuLabError(
      'OUT_OF_HOST_MEMORY',
      `${method}() would need ${bytes} bytes of host memory for the copy, more than the ${available} bytes available: read the buffer in parts (start, count)`,
      { requestedBytes: bytes, availableBytes: available },
    );
  }
}

export function checkDtype(name: string, value: unknown): DType {
  return oneOf(name, value, DTYPES, 'UNKNOWN_DTYPE');
}

export function createHostBuffer<D extends DType>(dtype: D, length: number): ElementBuffer<D> {
  checkDtype('dtype', dtype);
  const maxLength = Math.floor(Number.MAX_SAFE_INTEGER / DTYPE_BYTES[dtype]);
  positiveInteger('length', length, maxLength);
  const addon = loadAddon();
  const bytes = length * DTYPE_BYTES[dtype];
  const total = addon.cpuInfo().memoryTotalBytes;
  if (total > 0 && bytes > total) {
    throw new GpuLabError(
      'OUT_OF_HOST_MEMORY',
      `A ${dtype} buffer of ${length} elements needs ${bytes} bytes, more than this machine's ${total} bytes of memory`,
      { requestedBytes: bytes, totalBytes: total },
    );
  }
  return new ElementBuffer<D>(addon.createHostBuffer(dtype, length));
}
