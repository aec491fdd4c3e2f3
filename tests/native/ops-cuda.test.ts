// The CUDA operations' argument checks that need no device: they refuse before any CUDA call, so they hold the
// same in a CPU-only build, on a machine without a GPU and on one with.
import { describe, expect, it } from 'vitest';

import { benchmark, createHostBuffer, poison } from '../../native/index.ts';
import type { CudaOpSpec, ElementBuffer } from '../../native/index.ts';
import { expectCode } from './helpers.ts';

async function codeOf(spec: CudaOpSpec): Promise<string | undefined> {
  try {
    await benchmark(spec, { repeats: 1 });
  } catch (err) {
    return (err as { code?: string }).code;
  }
  return undefined;
}

describe('CUDA GEMM shapes past the grid limits', () => {
  // Small host buffers: the shape check comes before the buffers' lengths and residence are looked at.
  const a = createHostBuffer('fp32', 4);
  const b = createHostBuffer('fp32', 4);
  const out = createHostBuffer('fp32', 4);
  const a8 = createHostBuffer('int8', 4);
  const b8 = createHostBuffer('int8', 4);
  const device = 'cuda:0' as const;

  it('the naive SGEMM refuses m over 65535 blocks of 8 rows with SIZE_UNSUPPORTED naming m, the value and the limit', async () => {
    await expectCode(() => benchmark({ device, op: 'gemm', variant: 'naive', a, b, out, m: 524_281, n: 1, k: 1 }), 'SIZE_UNSUPPORTED', ['`m`', '524281', '524280', '65535']);
    expect(await codeOf({ device, op: 'gemm', variant: 'naive', a, b, out, m: 524_280, n: 1, k: 1 })).not.toBe('SIZE_UNSUPPORTED');
  });

  it('the tiled SGEMM refuses m over 65535 blocks of 128 rows', async () => {
    await expectCode(() => benchmark({ device, op: 'gemm', variant: 'tiled', a, b, out, m: 8_388_481, n: 1, k: 1 }), 'SIZE_UNSUPPORTED', ['`m`', '8388481', '8388480']);
    expect(await codeOf({ device, op: 'gemm', variant: 'tiled', a, b, out, m: 8_388_480, n: 1, k: 1 })).not.toBe('SIZE_UNSUPPORTED');
  });

  it("the int8 GEMM refuses k over 65535 blocks of 32 rows (its transpose of B); other dtypes' k is cuBLAS's", async () => {
    await expectCode(() => benchmark({ device, op: 'gemm', variant: 'cublas', dtype: 'int8', path: 'resident', a: a8, b: b8, out, m: 1, n: 1, k: 2_097_121 }), 'SIZE_UNSUPPORTED', ['`k`', '2097121', '2097120']);
    expect(await codeOf({ device, op: 'gemm', variant: 'cublas', dtype: 'int8', path: 'resident', a: a8, b: b8, out, m: 1, n: 1, k: 2_097_120 })).not.toBe('SIZE_UNSUPPORTED');
    expect(await codeOf({ device, op: 'gemm', variant: 'cublas', dtype: 'fp32', path: 'resident', a, b, out, m: 1, n: 1, k: 2_097_121 })).not.toBe('SIZE_UNSUPPORTED');
  });

  it('n up to INT_MAX passes the grid check (x holds 2³¹ − 1 blocks); past it is cuBLAS’s int limit', async () => {
    expect(await codeOf({ device, op: 'gemm', variant: 'tiled', a, b, out, m: 1, n: 2_147_483_647, k: 1 })).not.toBe('SIZE_UNSUPPORTED');
    await expectCode(() => benchmark({ device, op: 'gemm', variant: 'tiled', a, b, out, m: 1, n: 2_147_483_648, k: 1 }), 'SIZE_UNSUPPORTED', ['`n`']);
  });
});

describe('CUDA operands that are not buffers', () => {
  // Shaped like a buffer, made by no facade: it used to reach the addon, which said only "Invalid argument".
  const fake = { dtype: 'fp32', location: 'device', device: 0, length: 4, byteLength: 16, live: () => ({}) } as unknown as ElementBuffer;

  it('an operation refuses a look-alike buffer with INVALID_ARGUMENT naming the argument', async () => {
    const out = createHostBuffer('fp32', 4);
    await expectCode(() => benchmark({ device: 'cuda:0', op: 'exp', path: 'resident', x: fake, out }), 'INVALID_ARGUMENT', ['`x`', 'fp32 buffer', 'Object']);
    await expectCode(() => benchmark({ device: 'cuda:0', op: 'copy', mode: 'sync', src: out, dst: fake }), 'INVALID_ARGUMENT', ['`dst`']);
  });

  it('poison() refuses anything but a buffer with INVALID_ARGUMENT naming `buffer`', () => {
    expect(() => poison(fake)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('`buffer`') }));
    expect(() => poison(null as unknown as ElementBuffer)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
  });
});
