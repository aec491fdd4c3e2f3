// A Python peer's point keeps to its budget as the engine's does: the worker answers each sample as a mean per call
// (calls shorter than the minimum sample are batched), and the stopping rule must budget a sample by all its calls.
// Driven by a fake worker on a fake clock that answers as python/gpu_lab_peers/__main__.py does: no timed thresholds.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { MIN_INTERVAL_SAMPLES } from '../../../main/common/pure/statistics.ts';
import type { PeerSamples } from '../../../main/common/peer-protocol.ts';
import { peerRound } from '../../../main/host/ops/peer.ts';
import { sampleAdaptively } from '../../../main/host/sampling.ts';

// The worker's `sample`: `warmup` untimed calls, the batch sized once on a warmed call, then `count` samples of
// `batch` calls each, every call of the s-th sample `callMs(s)` long on the fake clock (the untimed ones as the first
// sample's); times and wall times per call.
function fakeWorker(callMs: (sample: number) => number, minSampleMs: number) {
  let clock = 0;
  let taken = 0;
  let calls = 0;
  let batch: number | null = null;
  const call = (): number => {
    const ms = callMs(taken);
    clock += ms;
    calls++;
    return ms;
  };
  const sample = (warmup: number, count: number): PeerSamples => {
    for (let i = 0; i < warmup; i++) call();
    batch ??= Math.max(1, Math.ceil(minSampleMs / call()));
    const perCall: number[] = [];
    for (let s = 0; s < count; s++) {
      let sum = 0;
      for (let c = 0; c < (batch ?? 1); c++) sum += call();
      perCall.push(sum / (batch ?? 1));
      taken++;
    }
    return { id: 1, ok: true, samplesMs: perCall, wallMs: perCall, clock: 'host', executionsPerSample: batch ?? 1 };
  };
  return { sample, now: () => clock, calls: () => calls };
}

describe('a peer point within its budget', () => {
  it('stops batched samples at the budget in force, counting every call of a sample', async () => {
    // 50-µs calls, batched 100 to a 5-ms sample, noisy (never within ±2 %): sampled until the budget is spent.
    const w = fakeWorker((i) => (i % 2 ? 0.05 : 0.06), 5);
    const { sampling, rounds } = await sampleAdaptively(({ first, samples }) => Promise.resolve(peerRound(w.sample(first ? 2 : 0, samples))), { budgetSeconds: 0.2, plannedRuns: 22, now: w.now });
    expect(sampling.stop).toBe('budget');
    expect(w.now()).toBeLessThanOrEqual(sampling.budgetSeconds * 1000);
    // A batched sample's wall time is all its calls, not one.
    const second = rounds[1];
    expect(second?.executionsPerSample).toBeGreaterThan(50);
    expect(second?.sampleWallMs[0]).toBeCloseTo((second?.hostMs[0] ?? 0) * (second?.executionsPerSample ?? 0), 9);
  });

  it('takes the warm-up and six samples of a call longer than the plan guessed, no sample more, and records what they took as its budget', async () => {
    // PyTorch's add of 10⁸ elements with its copies, as an H100 ran it (tests/fixtures/peer-runs): about 0.34 s a
    // call, where the plan gave the point 1.25 s at the bus's guessed speed. Two warm-up calls, one that sizes the
    // batch (this fake always makes it), six samples of one call.
    const w = fakeWorker((i) => (i % 2 ? 300 : 380), 5);
    const { sampling } = await sampleAdaptively(({ first, samples }) => Promise.resolve(peerRound(w.sample(first ? 2 : 0, samples))), { budgetSeconds: 1.25, plannedRuns: 10, now: w.now });
    expect(sampling).toMatchObject({ samples: MIN_INTERVAL_SAMPLES, stop: 'budget' });
    expect(w.calls()).toBe(2 + 1 + MIN_INTERVAL_SAMPLES);
    expect(sampling.budgetSeconds * 1000).toBeCloseTo(w.now(), 9);
  });

  it('keeps any noisy series of short calls within its budget, with at least an interval\'s samples', async () => {
    await fc.assert(
      fc.asyncProperty(fc.double({ min: 0.002, max: 4, noNaN: true }), fc.double({ min: 0.05, max: 2, noNaN: true }), fc.integer({ min: 4, max: 40 }), async (callMs, budgetSeconds, plannedRuns) => {
        const w = fakeWorker((i) => callMs * (i % 3 === 0 ? 1.3 : 1), 5);
        const { sampling } = await sampleAdaptively(({ first, samples }) => Promise.resolve(peerRound(w.sample(first ? 2 : 0, samples))), { budgetSeconds, plannedRuns, now: w.now });
        expect(sampling.samples).toBeGreaterThanOrEqual(MIN_INTERVAL_SAMPLES);
        // Six samples (and the warm-up) are taken even where they outlast the budget; past them, no more than the
        // rounds the budget holds at the mean sample's length, which samples 1.3× as long stretch by as much.
        const sixSamples = (2 + 1 + MIN_INTERVAL_SAMPLES * Math.ceil(5 / callMs)) * callMs * 1.3;
        expect(w.now()).toBeLessThanOrEqual(Math.max(1.3 * sampling.budgetSeconds * 1000, sixSamples));
      }),
      { numRuns: 200 },
    );
  });
});
