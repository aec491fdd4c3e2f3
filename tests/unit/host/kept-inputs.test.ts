// The engine's seeded host inputs kept between points: a later point asking for the same seed, size, type and range
// gets the same values without a fill, counted; anything else is filled anew; a cold point's, an op's own and an
// unfinished fill's are never kept; no more than the bound is held, beside a point's new inputs too, the oldest let
// go first, kept while a point measures however long it takes, and all of it when the run ends (or, outside a run,
// once no point has been open for a while); no CPU op writes into a kept input.
import { afterEach, describe, expect, it, vi } from 'vitest';

import { MEASUREMENT } from '../../../main/common/measurement.ts';
import type { Measurement } from '../../../main/common/measurement.ts';
import { KEEP_MS, giveInput, keptInputBytes, makeRoomFor, pointEnded, pointStarted, releaseInputs, runEnded, takeInput } from '../../../main/host/kept-inputs.ts';
import { MeasurementBackend } from '../../../main/host/ops/backend.ts';
import { measure } from '../../../main/host/ops/index.ts';
import { ElementBuffer, createHostBuffer } from '../../../native/index.ts';

const ctx = { signal: new AbortController().signal, onProgress: (): void => undefined };
const point = (fields: Record<string, unknown> = {}): Measurement =>
  MEASUREMENT.parse({ op: 'add', variant: 'threads', ...(fields.op === 'gemm' ? {} : { elements: 50_000 }), device: 'cpu', warmup: 0, repeats: 1, budgetSeconds: 0.01, seed: 11, ...fields });
const RANGE = { low: -1, high: 1 };

afterEach(() => {
  releaseInputs();
  vi.restoreAllMocks();
  vi.useRealTimers();
});

// One point's input of `fields`' seed, made, filled and given back at the point's end.
async function inputOfAPoint(fields: Record<string, unknown> = {}, length = 50_000, slot = 0): Promise<{ values: number[]; buffer: ElementBuffer }> {
  const backend = new MeasurementBackend(point(fields), ctx);
  const buffer = backend.input('fp32', length, slot, RANGE);
  await backend.settled();
  const values = Array.from(buffer.toFloat64());
  backend.free();
  return { values, buffer };
}

describe('kept inputs', () => {
  it('gives a second point of the same seed, size and type equal inputs without filling them again', async () => {
    const fills = vi.spyOn(ElementBuffer.prototype, 'fillRandomAsync');
    const first = await inputOfAPoint();
    expect(fills).toHaveBeenCalledTimes(1);
    const second = await inputOfAPoint();
    expect(fills).toHaveBeenCalledTimes(1);
    expect(second.buffer).toBe(first.buffer);
    // The values a fill with the seed writes, as a fresh buffer holds them.
    const fresh = Array.from(createHostBuffer('fp32', 50_000).fillRandom(11, RANGE).toFloat64());
    expect(second.values).toEqual(fresh);
    expect(first.buffer.freed).toBe(false);
  });

  it('fills anew for another seed, stream, size or range, and for a cold point, whose input is not kept', async () => {
    const fills = vi.spyOn(ElementBuffer.prototype, 'fillRandomAsync');
    const kept = await inputOfAPoint();
    await inputOfAPoint({ seed: 20 });
    await inputOfAPoint({}, 50_000, 1);
    await inputOfAPoint({}, 40_000);
    expect(fills).toHaveBeenCalledTimes(4);
    const cold = await inputOfAPoint({ cold: true, repeats: 2 });
    expect(fills).toHaveBeenCalledTimes(5);
    expect(cold.buffer).not.toBe(kept.buffer);
    expect(cold.buffer.freed).toBe(true);
    // The warm one is still there for the next point.
    expect((await inputOfAPoint()).buffer).toBe(kept.buffer);
    expect(fills).toHaveBeenCalledTimes(5);
  });

  it('never keeps an input an op writes into, nor one whose fill had not ended with its point', async () => {
    const fills = vi.spyOn(ElementBuffer.prototype, 'fillRandomAsync');
    const own = new MeasurementBackend(point(), ctx);
    const written = own.ownInput('fp32', 50_000, 0, RANGE);
    await own.settled();
    own.free();
    expect(written.freed).toBe(true);
    // A point refused before it waited for its fills: the fill may be half done.
    const refused = new MeasurementBackend(point(), ctx);
    const unfinished = refused.input('fp32', 50_000, 0, RANGE);
    refused.free();
    expect(unfinished.freed).toBe(true);
    await inputOfAPoint();
    expect(fills).toHaveBeenCalledTimes(3);
  });

  it('holds no more than its bound, letting the oldest go first, and lets all go once no point has ended for a while', () => {
    vi.useFakeTimers();
    const [a, b, c] = [1000, 2000, 3000].map((n) => createHostBuffer('fp32', n));
    if (!a || !b || !c) throw new Error('three buffers');
    pointStarted();
    giveInput('a', a, 20_000);
    giveInput('b', b, 20_000);
    expect(keptInputBytes()).toBe(12_000);
    giveInput('c', c, 20_000);
    expect([a.freed, b.freed, c.freed]).toEqual([true, false, false]);
    expect(keptInputBytes()).toBe(20_000);
    expect(takeInput('a')).toBeUndefined();
    pointEnded();
    vi.advanceTimersByTime(KEEP_MS - 1);
    expect([b.freed, c.freed]).toEqual([false, false]);
    vi.advanceTimersByTime(1);
    expect([b.freed, c.freed]).toEqual([true, true]);
    expect(keptInputBytes()).toBe(0);
    expect(takeInput('b')).toBeUndefined();
  });

  it('keeps them while a point measures, however long, for the run\'s next point', () => {
    vi.useFakeTimers();
    const a = createHostBuffer('fp32', 1000);
    pointStarted();
    giveInput('a', a, 20_000);
    pointEnded();
    // The next point takes a minute: what the one after it will ask for stays.
    pointStarted();
    vi.advanceTimersByTime(6 * KEEP_MS);
    expect(a.freed).toBe(false);
    pointEnded();
    vi.advanceTimersByTime(KEEP_MS);
    expect(a.freed).toBe(true);
  });

  it('lets them go as soon as the run ends, but not while a point of another run measures', () => {
    vi.useFakeTimers();
    const [a, b] = [1000, 2000].map((n) => createHostBuffer('fp32', n));
    if (!a || !b) throw new Error('two buffers');
    pointStarted();
    giveInput('a', a, 20_000);
    pointEnded();
    runEnded();
    expect(a.freed).toBe(true);
    expect(keptInputBytes()).toBe(0);
    pointStarted();
    giveInput('b', b, 20_000);
    runEnded();
    expect(b.freed).toBe(false);
    pointEnded();
    runEnded();
    expect(b.freed).toBe(true);
  });

  it('ends the point even when one of its buffers fails to go, so that what is kept still times out', async () => {
    const backend = new MeasurementBackend(point(), ctx);
    backend.ownInput('fp32', 1000, 0, RANGE);
    await backend.settled();
    vi.useFakeTimers();
    const kept = createHostBuffer('fp32', 1000);
    giveInput('k', kept, 20_000);
    vi.spyOn(ElementBuffer.prototype, 'free').mockImplementationOnce(() => {
      throw new Error('the driver refused');
    });
    expect(() => backend.free()).toThrow('the driver refused');
    vi.advanceTimersByTime(KEEP_MS);
    expect(kept.freed).toBe(true);
  });

  it('lets kept inputs go before a point makes inputs that would not fit beside them', () => {
    const [a, b] = [1000, 2000].map((n) => createHostBuffer('fp32', n));
    if (!a || !b) throw new Error('two buffers');
    giveInput('a', a, 20_000);
    giveInput('b', b, 20_000);
    makeRoomFor(8000, 20_000);
    expect([a.freed, b.freed]).toEqual([false, false]);
    makeRoomFor(10_000, 20_000);
    expect([a.freed, b.freed]).toEqual([true, false]);
    // More than the bound alone: nothing kept beside it.
    makeRoomFor(30_000, 20_000);
    expect(b.freed).toBe(true);
    expect(keptInputBytes()).toBe(0);
  });

  it('is left as its fill wrote it by every CPU op that reads it', async () => {
    const points: Record<string, unknown>[] = [
      { op: 'add', variant: 'single' },
      { op: 'mul', variant: 'threads' },
      { op: 'exp', variant: 'threads' },
      { op: 'vector-function', variant: 'single', a: 3.5, b: 2.8, c: 10 },
      { op: 'vector-function', variant: 'threads', a: 3.5, b: 2.8, c: 10 },
      { op: 'gemm', dtype: 'fp32', variant: 'blocked', m: 96, n: 80, k: 64 },
      { op: 'gemm', dtype: 'fp64', variant: 'blas', m: 96, n: 80, k: 64 },
    ];
    for (const fields of points) {
      const m = point(fields);
      const made: { buffer: ElementBuffer; seed: number; range: { low: number; high: number } | undefined }[] = [];
      const fill = ElementBuffer.prototype.fillRandomAsync;
      const fills = vi.spyOn(ElementBuffer.prototype, 'fillRandomAsync').mockImplementation(function (this: ElementBuffer, seed, range) {
        made.push({ buffer: this, seed, range });
        return fill.call(this, seed, range);
      });
      const r = await measure(m, ctx);
      expect(r.verification?.passed, JSON.stringify(fields)).toBe(true);
      fills.mockRestore();
      expect(made.length, JSON.stringify(fields)).toBeGreaterThan(0);
      for (const { buffer, seed, range } of made) {
        expect(buffer.freed, `${JSON.stringify(fields)}: its input is kept`).toBe(false);
        const fresh = createHostBuffer(buffer.dtype, buffer.length).fillRandom(seed, range);
        expect(Array.from(buffer.read()), JSON.stringify(fields)).toEqual(Array.from(fresh.read()));
      }
      releaseInputs();
    }
  }, 60_000);
});
