// A peer's output where only the elements the check reads came back from the worker (host/ops/peer.ts
// sampledOutput): the check reads each of them as the engine's buffer would hold it, fp16 and bf16 decoded from their
// bits, in any order and with repeats, and passes or fails on them exactly as on a whole output.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { createHostBuffer } from '../../../native/index.ts';
import type { DType } from '../../../native/index.ts';
import { sampledOutput } from '../../../main/host/ops/peer.ts';
import { readAt, sampleIndices, verifyElementwise } from '../../../main/host/verify.ts';

const TYPED = { fp64: Float64Array, fp32: Float32Array, fp16: Uint16Array, bf16: Uint16Array, int8: Int8Array } as const;

describe('a peer\'s sampled output', () => {
  it('reads at every sampled index the value the whole output holds there, in any order and with repeats', () => {
    fc.assert(
      fc.property(fc.constantFrom<DType>('fp64', 'fp32', 'fp16', 'bf16', 'int8'), fc.integer({ min: 1, max: 50_000 }), fc.integer({ min: 1, max: 300 }), fc.integer({ min: 0, max: 1000 }), (dtype, length, count, seed) => {
        const whole = createHostBuffer(dtype, length).fillRandom(seed);
        try {
          // The reads as the check makes them, scattered and unsorted, some repeated.
          const reads = sampleIndices(length, count, seed + 1).concat(sampleIndices(length, 3, seed + 2));
          const raw = whole.read();
          const values = new TYPED[dtype](reads.map((i) => raw[i] ?? 0));
          const sampled = sampledOutput(whole, reads, values);
          expect(sampled.length).toBe(length);
          expect(Array.from(readAt(sampled, reads))).toEqual(Array.from(readAt(whole, reads)));
        } finally {
          whole.free();
        }
      }),
      { numRuns: 150 },
    );
  });

  it('passes an output the worker computed right and fails one wrong element, naming it, as the whole output would', () => {
    const n = 3_000_000;
    const x = createHostBuffer('fp32', n).fillRandom(4, { low: -1, high: 1 });
    const y = createHostBuffer('fp32', n).fillRandom(5, { low: -1, high: 1 });
    try {
      const reads = sampleIndices(n, 4096);
      const xs = readAt(x, reads);
      const ys = readAt(y, reads);
      const right = new Float32Array(reads.map((_, i) => (xs[i] ?? 0) + (ys[i] ?? 0)));
      const add = ([a = Number.NaN, b = Number.NaN]: number[]): number => a + b;
      const out = createHostBuffer('fp32', n);
      const good = verifyElementwise(sampledOutput(out, reads, right), [x, y], add, 1e-6);
      expect(good).toMatchObject({ passed: true, method: 'sampled', checked: 4096, total: n });
      const wrong = right.slice();
      wrong[17] = (wrong[17] ?? 0) + 1;
      const bad = verifyElementwise(sampledOutput(out, reads, wrong), [x, y], add, 1e-6);
      expect(bad.passed).toBe(false);
      expect(bad.mismatches.map((m) => m.index)).toEqual([reads[17]]);
      out.free();
    } finally {
      x.free();
      y.free();
    }
  });
});
