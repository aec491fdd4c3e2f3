// The CUDA operations' argument checks that need no device: they refuse before any CUDA call, so they hold the
// same in a CPU-only build, on a machine without a GPU and on one with.
import { describe, expect, it } from 'vitest';

import { benchmark, createHostBuffer } from '../../native/index.ts';
import type { CudaOpSpec } from '../../native/index.ts';
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
    await expectCode(() => benchmark({ device, op: 'sgemm-naive', a, b, out, m: 524_281, n: 1, k: 1 }), 'SIZE_UNSUPPORTED', ['`m`', '524281', '524280', '65535']);
    expect(await codeOf({ device, op: 'sgemm-naive', a, b, out, m: 524_280, n: 1, k: 1 })).not.toBe('SIZE_UNSUPPORTED');
  });

  it('the tiled SGEMM refuses m over 65535 blocks of 128 rows', async () => {
    await expectCode(() => benchmark({ device, op: 'sgemm-tiled', a, b, out, m: 8_388_481, n: 1, k: 1 }), 'SIZE_UNSUPPORTED', ['`m`', '8388481', '8388480']);
    expect(await codeOf({ device, op: 'sgemm-tiled', a, b, out, m: 8_388_480, n: 1, k: 1 })).not.toBe('SIZE_UNSUPPORTED');
  });

  it("the int8 GEMM refuses k over 65535 blocks of 32 rows (its transpose of B); other dtypes' k is cuBLAS's", async () => {
    await expectCode(() => benchmark({ device, op: 'gemm', variant: 'resident', a: a8, b: b8, out, m: 1, n: 1, k: 2_097_121 }), 'SIZE_UNSUPPORTED', ['`k`', '2097121', '2097120']);
    expect(await codeOf({ device, op: 'gemm', variant: 'resident', a: a8, b: b8, out, m: 1, n: 1, k: 2_097_120 })).not.toBe('SIZE_UNSUPPORTED');
    expect(await codeOf({ device, op: 'gemm', variant: 'resident', a, b, out, m: 1, n: 1, k: 2_097_121 })).not.toBe('SIZE_UNSUPPORTED');
  });

  it('n up to INT_MAX passes the grid check (x holds 2³¹ − 1 blocks); past it is cuBLAS’s int limit', async () => {
    expect(await codeOf({ device, op: 'sgemm-tiled', a, b, out, m: 1, n: 2_147_483_647, k: 1 })).not.toBe('SIZE_UNSUPPORTED');
    await expectCode(() => benchmark({ device, op: 'sgemm-tiled', a, b, out, m: 1, n: 2_147_483_648, k: 1 }), 'SIZE_UNSUPPORTED', ['`n`']);
  });
});
