// The arguments of "blas1" (cuBLAS saxpy, sum and transpose) that need no device: the facade refuses them before
// any CUDA call, naming the argument, the value and what was expected, in a CPU-only build, on a machine without a
// GPU and on one with. Host buffers stand in for device buffers: every check but residence comes first.
import { describe, it } from 'vitest';

import { benchmark, createHostBuffer } from '../../native/index.ts';
import type { CudaOpSpec } from '../../native/index.ts';
import { expectCode } from './helpers.ts';

const device = 'cuda:0' as const;
const run = (spec: CudaOpSpec): Promise<unknown> => benchmark(spec, { repeats: 1 });

describe('cuBLAS blas1 arguments', () => {
  const x = createHostBuffer('fp32', 16);
  const y = createHostBuffer('fp32', 16);
  const out = createHostBuffer('fp32', 16);

  it('an unknown routine is refused with the three there are', async () => {
    await expectCode(() => run({ device, op: 'blas1', routine: 'dot', x, out } as unknown as CudaOpSpec), 'INVALID_ARGUMENT', ['`routine`', 'saxpy, sum, transpose', '"dot"']);
  });

  it('saxpy: `a` must be a finite fp32, x, y and out of one length and dtype', async () => {
    await expectCode(() => run({ device, op: 'blas1', routine: 'saxpy', x, y, out, a: Number.NaN }), 'INVALID_ARGUMENT', ['`a`', 'finite number', 'NaN']);
    await expectCode(() => run({ device, op: 'blas1', routine: 'saxpy', x, y, out, a: 1e39 }), 'INVALID_ARGUMENT', ['`a`', 'fp32 range', '1e+39']);
    await expectCode(() => run({ device, op: 'blas1', routine: 'saxpy', x, y: createHostBuffer('fp32', 15), out, a: 2.5 }), 'LENGTH_MISMATCH', ['`y`', '16', '15']);
    await expectCode(() => run({ device, op: 'blas1', routine: 'saxpy', x, y: createHostBuffer('fp64', 16), out, a: 2.5 }), 'DTYPE_MISMATCH', ['`y`', 'fp32', 'fp64']);
  });

  it('saxpy, sum and transpose take device memory on the op’s device', async () => {
    await expectCode(() => run({ device, op: 'blas1', routine: 'saxpy', x, y, out, a: 2.5 }), 'INVALID_ARGUMENT', ['`x`', 'device memory on cuda:0', 'pageable host memory']);
    await expectCode(() => run({ device, op: 'blas1', routine: 'sum', x, out: createHostBuffer('fp32', 1) }), 'INVALID_ARGUMENT', ['`x`', 'device memory on cuda:0']);
    await expectCode(() => run({ device, op: 'blas1', routine: 'transpose', in: x, out, n: 4 }), 'INVALID_ARGUMENT', ['`in`', 'device memory on cuda:0']);
  });

  it('sum: out holds the one total', async () => {
    await expectCode(() => run({ device, op: 'blas1', routine: 'sum', x, out }), 'LENGTH_MISMATCH', ['`out`', 'one total = 1', '16']);
  });

  it('transpose: n within 1…46340, in and out of n·n elements, out another buffer than in', async () => {
    await expectCode(() => run({ device, op: 'blas1', routine: 'transpose', in: x, out, n: 0 }), 'INVALID_ARGUMENT', ['`n`', '0']);
    await expectCode(() => run({ device, op: 'blas1', routine: 'transpose', in: x, out, n: 46341 }), 'SIZE_UNSUPPORTED', ['`n`', '46340', '46341']);
    await expectCode(() => run({ device, op: 'blas1', routine: 'transpose', in: createHostBuffer('fp32', 15), out, n: 4 }), 'LENGTH_MISMATCH', ['`in`', 'n·n = 16', '15']);
    await expectCode(() => run({ device, op: 'blas1', routine: 'transpose', in: x, out: x, n: 4 }), 'INVALID_ARGUMENT', ['`out`', 'in place']);
  });
});
