// The engine's stopping rule, driven by a fake backend whose samples and clock the test sets: steady samples stop at
// the fewest that give an interval, noisy ones go on until the budget, one sample longer than the budget stops alone
// and says so, the cap holds, and a cancel stops between rounds.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { GpuLabError } from '../../../main/common/errors.ts';
import type { Clock } from '../../../main/common/measurement.ts';
import { MIN_BUDGET_SECONDS, MIN_INTERVAL_SAMPLES, timedStatistics } from '../../../main/common/pure/statistics.ts';
import { MAX_SAMPLES, SHRUNK_BUDGET_SAMPLES, TARGET_INTERVAL_FRACTION, converged, joinRounds, sampleAdaptively } from '../../../main/host/sampling.ts';
import type { RoundRequest, RoundResult } from '../../../main/host/sampling.ts';

// A backend whose i-th sample is sample(i) ms long; its clock moves by each sample's length.
function fakeBackend(sample: (i: number) => number) {
  let clock = 0;
  let taken = 0;
  const requests: RoundRequest[] = [];
  const takeRound = async (r: RoundRequest): Promise<RoundResult> => {
    requests.push(r);
    const samples = Array.from({ length: r.samples }, () => sample(taken++));
    clock += samples.reduce((s, v) => s + v, 0);
    return Promise.resolve({ clock: 'host', hostMs: samples, deviceMs: null, sampleWallMs: samples });
  };
  return { takeRound, now: () => clock, requests, spent: () => clock };
}

describe('adaptive sampling', () => {
  it('stops at the fewest samples that give an interval when they agree', async () => {
    const b = fakeBackend(() => 1);
    const { sampling } = await sampleAdaptively(b.takeRound, { budgetSeconds: 10, now: b.now });
    expect(sampling).toEqual({ samples: MIN_INTERVAL_SAMPLES, targetFraction: TARGET_INTERVAL_FRACTION, budgetSeconds: 10, stop: 'converged' });
    // The warm-up runs before the first round only.
    expect(b.requests.map((r) => r.first)).toEqual([true, false]);
  });

  it('samples on until the median is known to the closer target a point asks for, and records that target', async () => {
    // Samples spread ±3 % around 10 ms: within ±2 % soon, within ±1 % only after more of them.
    const spread = (i: number): number => 10 * (1 + 0.03 * Math.sin(i * 2.4));
    const usual = await sampleAdaptively(fakeBackend(spread).takeRound, { budgetSeconds: 100, now: fakeBackend(spread).now });
    const b = fakeBackend(spread);
    const close = await sampleAdaptively(b.takeRound, { budgetSeconds: 100, now: b.now, targetFraction: 0.01 });
    expect(usual.sampling).toMatchObject({ stop: 'converged', targetFraction: TARGET_INTERVAL_FRACTION });
    expect(close.sampling).toMatchObject({ stop: 'converged', targetFraction: 0.01 });
    expect(close.sampling.samples).toBeGreaterThan(usual.sampling.samples);
    const all = close.rounds.flatMap((r) => r.hostMs);
    expect(converged(all, 0.01)).toBe(true);
    expect(converged(all.slice(0, usual.sampling.samples), 0.01)).toBe(false);
  });

  it('goes on sampling noisy samples until the budget is spent, and no further', async () => {
    // Alternating 1 ms and 2 ms: the median's interval never comes within ±2 %.
    const b = fakeBackend((i) => (i % 2 ? 2 : 1));
    const { sampling } = await sampleAdaptively(b.takeRound, { budgetSeconds: 0.1, now: b.now });
    expect(sampling.stop).toBe('budget');
    expect(sampling.samples).toBeGreaterThan(MIN_INTERVAL_SAMPLES);
    expect(b.spent()).toBeLessThanOrEqual(100);
    // Stopped because the next sample would not fit: within one sample of the budget.
    expect(b.spent()).toBeGreaterThan(100 - 2 * 2);
  });

  it('spends on a noisy point no more than the plan’s runs take at the speed measured, where that is less than its budget', async () => {
    // The plan guessed a slow machine (10 s for 1 warm-up and 39 repeats); samples take 10–20 ms here.
    const b = fakeBackend((i) => (i % 2 ? 20 : 10));
    const { sampling } = await sampleAdaptively(b.takeRound, { budgetSeconds: 10, plannedRuns: 40, now: b.now });
    expect(sampling.stop).toBe('budget');
    expect(b.spent()).toBeLessThanOrEqual(40 * 15);
    // The budget in force, recorded: 40 runs of about 15 ms.
    expect(sampling.budgetSeconds).toBeGreaterThan(0.4);
    expect(sampling.budgetSeconds).toBeLessThan(0.8);
  });

  it('shrinks a budget no lower than twenty samples, or the least budget, and never above the plan’s', async () => {
    // 11 planned runs of 5–10 ms: the shrunk budget holds twenty samples (about 0.15 s), not eleven.
    const slow = fakeBackend((i) => (i % 2 ? 10 : 5));
    const a = await sampleAdaptively(slow.takeRound, { budgetSeconds: 10, plannedRuns: 11, now: slow.now });
    expect(a.sampling.stop).toBe('budget');
    expect(a.sampling.samples).toBeGreaterThanOrEqual(SHRUNK_BUDGET_SAMPLES - 1);
    expect(a.sampling.budgetSeconds).toBeGreaterThan(0.12);
    expect(a.sampling.budgetSeconds).toBeLessThan(0.2);
    // Runs of 10–20 µs: twenty of them are far below the least budget, which holds.
    const tiny = fakeBackend((i) => (i % 2 ? 0.02 : 0.01));
    const t = await sampleAdaptively(tiny.takeRound, { budgetSeconds: 10, plannedRuns: 11, now: tiny.now });
    expect(t.sampling.budgetSeconds).toBeCloseTo(MIN_BUDGET_SECONDS, 6);
    expect(t.sampling.samples).toBe(MAX_SAMPLES);
    // Samples of 100–200 ms: twenty would take 3 s; the floor holds only SHRUNK_BUDGET_FLOOR_SECONDS of them, so the
    // budget is the plan's 11 runs at that speed.
    const long = fakeBackend((i) => (i % 2 ? 200 : 100));
    const l = await sampleAdaptively(long.takeRound, { budgetSeconds: 100, plannedRuns: 11, now: long.now });
    expect(l.sampling.budgetSeconds).toBeGreaterThan(1.1);
    expect(l.sampling.budgetSeconds).toBeLessThan(2.2);
    expect(l.sampling.samples).toBeLessThan(SHRUNK_BUDGET_SAMPLES);
    // The plan's own budget stays the ceiling.
    const capped = fakeBackend((i) => (i % 2 ? 20 : 10));
    const c = await sampleAdaptively(capped.takeRound, { budgetSeconds: 0.1, plannedRuns: 11, now: capped.now });
    expect(c.sampling.budgetSeconds).toBeCloseTo(0.1, 6);
    expect(capped.spent()).toBeLessThanOrEqual(100);
  });

  it('takes six samples even when six outlast the budget, as long as one does not, and records the time they took as the budget', async () => {
    const b = fakeBackend(() => 40);
    const { sampling } = await sampleAdaptively(b.takeRound, { budgetSeconds: 0.1, now: b.now });
    expect(sampling.samples).toBe(MIN_INTERVAL_SAMPLES);
    // Not the plan's 0.1 s, which the statistics' minimum could never keep: the 240 ms the six took.
    expect(sampling.budgetSeconds).toBeCloseTo((MIN_INTERVAL_SAMPLES * 40) / 1000, 9);
    expect(b.spent()).toBeLessThanOrEqual(sampling.budgetSeconds * 1000);
  });

  it('records a budget no point outlasts, the plan\'s where the minimum fits in it, else the minimum\'s own time', async () => {
    await fc.assert(
      fc.asyncProperty(fc.double({ min: 0.01, max: 500, noNaN: true }), fc.double({ min: 0.05, max: 5, noNaN: true }), fc.integer({ min: 3, max: 40 }), async (sampleMs, budgetSeconds, plannedRuns) => {
        // Alternating lengths: never within ±2 %, so every point samples until its budget.
        const length = (i: number): number => sampleMs * (i % 2 ? 1.5 : 1);
        const b = fakeBackend(length);
        const { sampling } = await sampleAdaptively(b.takeRound, { budgetSeconds, plannedRuns, now: b.now });
        if (sampling.stop === 'one-sample-over-budget') return;
        const sixMs = Array.from({ length: MIN_INTERVAL_SAMPLES }, (_, i) => length(i)).reduce((x, y) => x + y, 0);
        // Within a round of its budget: a round is sized by the mean sample, which a longer one outruns.
        expect(b.spent()).toBeLessThanOrEqual(sampling.budgetSeconds * 1000 + 1.5 * sampleMs);
        expect(sampling.budgetSeconds * 1000).toBeLessThanOrEqual(Math.max(budgetSeconds * 1000, sixMs) + 1e-6);
        if (sixMs <= budgetSeconds * 1000 * 0.5) expect(sampling.budgetSeconds).toBeLessThanOrEqual(budgetSeconds);
      }),
      { numRuns: 300 },
    );
  });

  it('stops at one sample, and says so, when that sample alone outlasts the budget', async () => {
    const b = fakeBackend(() => 300);
    const { sampling } = await sampleAdaptively(b.takeRound, { budgetSeconds: 0.1, now: b.now });
    expect(sampling).toMatchObject({ samples: 1, stop: 'one-sample-over-budget' });
  });

  it('a point whose setup spent part of its budget (a peer\'s) still takes an interval\'s samples when one fits the whole', async () => {
    // 300 ms a sample: past the 0.1 s left, within the point's 1 s.
    const b = fakeBackend(() => 300);
    const { sampling } = await sampleAdaptively(b.takeRound, { budgetSeconds: 0.1, wholeBudgetSeconds: 1, now: b.now });
    expect(sampling.samples).toBe(MIN_INTERVAL_SAMPLES);
    const past = fakeBackend(() => 1500);
    expect((await sampleAdaptively(past.takeRound, { budgetSeconds: 0.1, wholeBudgetSeconds: 1, now: past.now })).sampling).toMatchObject({ samples: 1, stop: 'one-sample-over-budget' });
  });

  it('stops at the cap however noisy the samples', async () => {
    const b = fakeBackend((i) => (i % 2 ? 2 : 1));
    const { sampling } = await sampleAdaptively(b.takeRound, { budgetSeconds: 1000, now: b.now });
    expect(sampling).toMatchObject({ samples: MAX_SAMPLES, stop: 'max-samples' });
  });

  it('stops between rounds when cancelled, with the samples taken so far', async () => {
    const controller = new AbortController();
    const b = fakeBackend((i) => {
      if (i === 3) controller.abort();
      return i % 2 ? 2 : 1;
    });
    const err = await sampleAdaptively(b.takeRound, { budgetSeconds: 10, now: b.now, signal: controller.signal }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GpuLabError);
    expect((err as GpuLabError).code).toBe('CANCELLED');
    expect((err as GpuLabError).details?.sampling).toMatchObject({ samples: MIN_INTERVAL_SAMPLES, stop: 'cancelled' });
    expect(b.requests).toHaveLength(2);
  });

  it('passes a backend cancellation on as one', async () => {
    const takeRound = (): Promise<RoundResult> => Promise.reject(new GpuLabError('CANCELLED', 'cancelled after 2 of 5 samples', { samples: 2 }));
    const err = await sampleAdaptively(takeRound, { budgetSeconds: 1 }).catch((e: unknown) => e);
    expect((err as GpuLabError).code).toBe('CANCELLED');
    expect((err as GpuLabError).details?.samples).toBe(2);
  });

  it('reports progress as the share of the budget spent', async () => {
    const b = fakeBackend((i) => (i % 2 ? 2 : 1));
    const seen: [number, number][] = [];
    await sampleAdaptively(b.takeRound, { budgetSeconds: 0.05, now: b.now, onProgress: (done, total) => seen.push([done, total]) });
    expect(seen.length).toBeGreaterThan(1);
    expect(seen.every(([done, total]) => total === 50 && done <= total)).toBe(true);
    expect(seen.map(([d]) => d)).toEqual([...seen.map(([d]) => d)].sort((x, y) => x - y));
  });

  it('judges the samples that count on the point’s clock, as the runner states them: CUDA events, not the host’s jittery wall time', async () => {
    // The device times a steady 1 ms; the host around it wakes up anywhere from 1.1 to 2 ms later.
    const rounds = (clock: Clock) => {
      let taken = 0;
      let now = 0;
      const takeRound = async (r: RoundRequest): Promise<RoundResult> => {
        const deviceMs = Array.from({ length: r.samples }, () => 1);
        const hostMs = deviceMs.map(() => 1.1 + 0.9 * ((taken++ * 7919) % 13) / 12);
        now += hostMs.reduce((sum, v) => sum + v, 0);
        return Promise.resolve({ clock, hostMs, deviceMs, sampleWallMs: hostMs });
      };
      return { takeRound, now: () => now };
    };
    const events = rounds('events');
    const onEvents = await sampleAdaptively(events.takeRound, { budgetSeconds: 0.2, now: events.now });
    expect(onEvents.sampling).toMatchObject({ stop: 'converged', samples: MIN_INTERVAL_SAMPLES });
    expect(timedStatistics(joinRounds(onEvents.rounds)).median).toBe(1);
    // The same rounds read on the host's clock (the events recorded beside a clock stopped at the launch count for
    // nothing): the host's spread is what is judged, and it does not settle.
    const host = rounds('host-nosync');
    const onHost = await sampleAdaptively(host.takeRound, { budgetSeconds: 0.2, now: host.now });
    expect(onHost.sampling.stop).toBe('budget');
    expect(timedStatistics(joinRounds(onHost.rounds)).median).toBeGreaterThan(1.1);
  });

  it('calls an interval within ±2 % converged, and one past it not', () => {
    expect(converged([100, 100, 100, 100, 100, 100])).toBe(true);
    expect(converged([99, 100, 100, 100, 100, 101.5])).toBe(true);
    expect(converged([97, 100, 100, 100, 100, 100])).toBe(false);
    expect(converged([100, 100, 100, 100, 100])).toBe(false);
  });
});
