// A memory-bound kernel whose working set fits in L2 is read from L2 after its first launch: its run records the
// two sizes and has no DRAM peak, so no "100.6 % of DRAM peak"; one a byte past L2 keeps the peak. Sizes are
// generated around the boundary of each L2 size.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import type { DeviceSummary } from '../../../main/common/devices.ts';
import { exerciseDefinition } from '../../../main/common/exercises.ts';
import { rateYardstick } from '../../../main/host/rate-yardstick.ts';

const MiB = 2 ** 20;

function gpu(l2CacheBytes: number | null): DeviceSummary {
  return {
    id: 'cuda:0',
    kind: 'cuda',
    name: 'NVIDIA H100 80GB HBM3',
    peakGflopsFp32: 66908,
    peakGflopsFp64: 33454,
    peakMemoryGBps: 3352,
    memoryBytes: 80 * 2 ** 30,
    details: { computeCapability: '9.0', l2CacheBytes },
  };
}

const reduction = exerciseDefinition('reduction');

describe('the yardstick of a kernel run’s rate', () => {
  it('the reduction’s default 2²³ floats (32 MiB) on an H100’s 50 MiB L2: read from L2, no DRAM peak', () => {
    const y = rateYardstick(reduction, reduction.size.default, gpu(50 * MiB));
    expect(y).toEqual({ peak: null, l2: { workingSetBytes: 32 * MiB, l2Bytes: 50 * MiB } });
  });

  it('the same on an A100-40GB’s 40 MiB L2, and DRAM on a GPU with a 6 MiB L2', () => {
    expect(rateYardstick(reduction, reduction.size.default, gpu(40 * MiB)).l2).toEqual({ workingSetBytes: 32 * MiB, l2Bytes: 40 * MiB });
    expect(rateYardstick(reduction, reduction.size.default, gpu(6 * MiB))).toEqual({ peak: { value: 3352, unit: 'GB/s' }, l2: undefined });
  });

  it('a working set at most L2 is flagged with no peak; one past L2 is not flagged and keeps the DRAM peak', () => {
    const l2 = fc.integer({ min: 1, max: 256 }).map((m) => m * MiB);
    fc.assert(
      fc.property(l2, fc.integer({ min: -4096, max: 4096 }), (l2Bytes, offset) => {
        const workingSetBytes = l2Bytes + offset * 4;
        fc.pre(workingSetBytes > 0);
        const exercise = { metric: 'GB/s' as const, elementType: 'fp32' as const, work: () => workingSetBytes };
        const y = rateYardstick(exercise, 1, gpu(l2Bytes));
        if (workingSetBytes <= l2Bytes) expect(y).toEqual({ peak: null, l2: { workingSetBytes, l2Bytes } });
        else expect(y).toEqual({ peak: { value: 3352, unit: 'GB/s' }, l2: undefined });
      }),
    );
  });

  it('an unknown L2 keeps the DRAM peak; a compute-bound exercise keeps its FLOP/s peak whatever it fits in', () => {
    expect(rateYardstick(reduction, reduction.size.default, gpu(null))).toEqual({ peak: { value: 3352, unit: 'GB/s' }, l2: undefined });
    const sgemm = exerciseDefinition('sgemm');
    expect(rateYardstick(sgemm, 64, gpu(50 * MiB))).toEqual({ peak: { value: 66908, unit: 'GFLOP/s' }, l2: undefined });
  });
});
