import { describe, expect, it } from 'vitest';

import { cpuInfo, createHostBuffer, DTYPES, MAX_GATHERED_ELEMENTS, poisonAsync } from '../../native/index.ts';
import { expectCode, freshSeed } from './helpers.ts';

describe('host buffers', () => {
  it.each(DTYPES)('%s: a seeded fill is reproducible, in range, and not constant', (dtype) => {
    const seed = freshSeed();
    const range = dtype === 'int8' ? { low: -100, high: 100 } : { low: -3, high: 5 };
    const a = createHostBuffer(dtype, 10_000).fillRandom(seed, range);
    const b = createHostBuffer(dtype, 10_000).fillRandom(seed, range);
    const c = createHostBuffer(dtype, 10_000).fillRandom(seed + 1, range);
    const va = a.toFloat64();
    expect(Array.from(b.toFloat64()), `seed ${seed}`).toEqual(Array.from(va));
    expect(Array.from(c.toFloat64())).not.toEqual(Array.from(va));
    const min = Math.min(...va);
    const max = Math.max(...va);
    expect(min).toBeGreaterThanOrEqual(range.low);
    expect(max).toBeLessThanOrEqual(range.high);
    // Uniform over the range: the extremes come close to the bounds and the values are spread out.
    expect(max - min).toBeGreaterThan(0.9 * (range.high - range.low));
    expect(new Set(va).size).toBeGreaterThan(dtype === 'int8' ? 150 : 200);
    expect(a.byteLength).toBe(10_000 * { fp64: 8, fp32: 4, fp16: 2, bf16: 2, int8: 1 }[dtype]);
  });

  it('int8 fill covers both bounds inclusively', () => {
    const v = createHostBuffer('int8', 5000).fillRandom(freshSeed(), { low: -3, high: 3 }).read();
    expect(new Set(v)).toEqual(new Set([-3, -2, -1, 0, 1, 2, 3]));
  });

  it('fp16 storage rounds to nearest even like IEEE binary16', () => {
    const f16round = (Math as unknown as { f16round?: (x: number) => number }).f16round;
    const buf = createHostBuffer('fp16', 20_000).fillRandom(freshSeed(), { low: -70_000, high: 70_000 });
    const halves = buf.toFloat64();
    const bits = buf.read();
    for (let i = 0; i < halves.length; i++) {
      const v = halves[i] ?? Number.NaN;
      // Every decoded value is a binary16 value (or ±infinity past 65504).
      if (f16round) expect(f16round(v)).toBe(v);
      if (Math.abs(v) > 65504) expect(Math.abs(v)).toBe(Infinity);
    }
    // Known bit patterns: 1.0 = 0x3c00, the largest subnormal, -2 = 0xc000.
    const probe = createHostBuffer('fp16', 1);
    probe.write(new Uint16Array([0x3c00]));
    expect(probe.toFloat64()[0]).toBe(1);
    probe.write(new Uint16Array([0x03ff]));
    expect(probe.toFloat64()[0]).toBeCloseTo(1023 * 2 ** -24, 20);
    probe.write(new Uint16Array([0xc000]));
    expect(probe.toFloat64()[0]).toBe(-2);
    expect(bits).toBeInstanceOf(Uint16Array);
  });

  it('bf16 storage keeps the top 16 bits of an fp32 rounded to nearest even', () => {
    const buf = createHostBuffer('bf16', 10_000).fillRandom(freshSeed(), { low: -1e30, high: 1e30 });
    const view = new DataView(new ArrayBuffer(4));
    for (const v of buf.toFloat64()) {
      view.setFloat32(0, v);
      expect(view.getUint16(2)).toBe(0);
    }
  });

  it('write then read returns the same values, at an offset too', () => {
    const buf = createHostBuffer('fp32', 100).fillRandom(freshSeed());
    const data = new Float32Array([1.5, -2.25, 3e-8]);
    buf.write(data, 97);
    expect(Array.from(buf.read(97, 3))).toEqual(Array.from(data));
    expect(buf.read(10, 0).length).toBe(0);
  });

  it('rejects bad arguments with a code and a message naming argument, value and expectation', async () => {
    await expectCode(() => createHostBuffer('fp32', 0), 'INVALID_ARGUMENT', ['`length`', 'positive integer', '0 of type number']);
    await expectCode(() => createHostBuffer('fp32', -3), 'INVALID_ARGUMENT', ['`length`', '-3']);
    await expectCode(() => createHostBuffer('fp32', Number.NaN), 'INVALID_ARGUMENT', ['`length`', 'NaN']);
    await expectCode(() => createHostBuffer('fp32', 2.5), 'INVALID_ARGUMENT', ['`length`', '2.5']);
    await expectCode(() => createHostBuffer('fp32', '10' as unknown as number), 'INVALID_ARGUMENT', ['"10" of type string']);
    await expectCode(() => createHostBuffer('fp128' as never, 10), 'UNKNOWN_DTYPE', ['`dtype`', 'fp128', 'fp64, fp32, fp16, bf16, int8']);
    await expectCode(() => createHostBuffer('fp64', 2 ** 53), 'SIZE_UNSUPPORTED', ['`length`']);
    // More than the machine's memory: refused before asking the system.
    await expectCode(() => createHostBuffer('fp64', 2 ** 45), 'OUT_OF_HOST_MEMORY', ['bytes']);
    const buf = createHostBuffer('fp32', 10);
    await expectCode(() => buf.write(new Float64Array(3) as never), 'DTYPE_MISMATCH', ['Float32Array']);
    await expectCode(() => buf.write(new Float32Array(11)), 'LENGTH_MISMATCH', ['11']);
    await expectCode(() => buf.read(5, 6), 'SIZE_UNSUPPORTED', ['`count`']);
    await expectCode(() => buf.read(-1), 'INVALID_ARGUMENT', ['`start`']);
    await expectCode(() => buf.fillRandom(-1), 'INVALID_ARGUMENT', ['`seed`']);
    await expectCode(() => buf.fillRandom(1, { low: 2, high: 1 }), 'INVALID_ARGUMENT', ['range.high']);
    await expectCode(() => createHostBuffer('int8', 4).fillRandom(1, { low: -200, high: 0 }), 'INVALID_ARGUMENT', ['-128']);
    // No integer between the bounds: refused, not a division by zero in the fill.
    await expectCode(() => createHostBuffer('int8', 4).fillRandom(1, { low: 0.25, high: 0.75 }), 'INVALID_ARGUMENT', ['at least one integer', '0.25 … 0.75']);
  });

  it.each(DTYPES)('%s: toFloat64At gives each index its element, in any order and with repeats, as a full read does', (dtype) => {
    const seed = freshSeed();
    const n = 50_003;
    const buf = createHostBuffer(dtype, n).fillRandom(seed);
    const all = buf.toFloat64();
    let state = seed;
    const indices = Array.from({ length: 4096 }, () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) % n);
    indices.push(0, n - 1, indices[0] ?? 0);
    expect(Array.from(buf.toFloat64At(indices)), `seed ${seed}`).toEqual(indices.map((i) => all[i]));
    expect(buf.toFloat64At([])).toHaveLength(0);
  });

  it('toFloat64At refuses an index outside the buffer, in the facade and in the addon, naming the index and the length', async () => {
    const buf = createHostBuffer('fp32', 1000).fillRandom(1);
    await expectCode(() => buf.toFloat64At([3, 1000]), 'INVALID_ARGUMENT', ['`indices[1]`', 'from 0 to 999', '1000']);
    await expectCode(() => buf.toFloat64At([-1]), 'INVALID_ARGUMENT', ['`indices[0]`', '-1']);
    await expectCode(() => buf.toFloat64At([2.5]), 'INVALID_ARGUMENT', ['`indices[0]`', '2.5']);
    await expectCode(() => buf.toFloat64At(new Float64Array(MAX_GATHERED_ELEMENTS + 1)), 'SIZE_UNSUPPORTED', ['`indices`', String(MAX_GATHERED_ELEMENTS)]);
    // The addon checks again what a caller past the facade hands it: an index one past the end reads nothing.
    await expectCode(() => buf.raw.readFloat64At(new Float64Array([0, 999, 1000])), 'INVALID_ARGUMENT', ['`indices[2]`', 'from 0 to 999', '1000']);
    await expectCode(() => buf.raw.readFloat64At(new Float64Array([Number.NaN])), 'INVALID_ARGUMENT', ['`indices[0]`', 'NaN']);
    await expectCode(() => buf.raw.readFloat64At(new Float64Array(MAX_GATHERED_ELEMENTS + 1)), 'SIZE_UNSUPPORTED', ['`indices`']);
    await expectCode(() => buf.raw.readFloat64At([1] as never), 'INVALID_ARGUMENT', ['Float64Array']);
    buf.free();
    await expectCode(() => buf.toFloat64At([0]), 'BUFFER_FREED');
  });

  it('refuses a copy larger than the memory available instead of letting V8 abort the process', async () => {
    // Untouched pages cost nothing: an int8 buffer an eighth of the available memory allocates, but decoding all
    // of it to float64 would need more than there is.
    const available = cpuInfo().memoryAvailableBytes;
    const big = createHostBuffer('int8', Math.ceil(available / 8) + (1 << 20));
    await expectCode(() => big.toFloat64(), 'OUT_OF_HOST_MEMORY', ['toFloat64()', 'in parts']);
    // A part of it still reads.
    expect(big.toFloat64(0, 10)).toHaveLength(10);
    big.free();
  });

  it('a freed buffer refuses every use with BUFFER_FREED and still describes itself', async () => {
    const buf = createHostBuffer('fp64', 1000).fillRandom(1);
    buf.free();
    expect(buf.freed).toBe(true);
    expect(buf.length).toBe(1000);
    await expectCode(() => buf.read(), 'BUFFER_FREED');
    await expectCode(() => buf.fillRandom(3), 'BUFFER_FREED');
    await expectCode(() => buf.write(new Float64Array(1)), 'BUFFER_FREED');
    buf.free(); // a second free is harmless
  });
});

describe('host buffers written off the JS thread', () => {
  it.each(DTYPES)('%s: fillRandomAsync writes exactly what fillRandom writes', async (dtype) => {
    const seed = freshSeed();
    const range = dtype === 'int8' ? { low: -100, high: 100 } : { low: -3, high: 5 };
    const sync = createHostBuffer(dtype, 3_000_000).fillRandom(seed, range);
    const async = await createHostBuffer(dtype, 3_000_000).fillRandomAsync(seed, range);
    expect(Array.from(async.read(0, 1000))).toEqual(Array.from(sync.read(0, 1000)));
    expect(Array.from(async.read(2_999_000))).toEqual(Array.from(sync.read(2_999_000)));
    expect(Array.from(async.toFloat64(1_234_567, 3))).toEqual(Array.from(sync.toFloat64(1_234_567, 3)));
  });

  it('keeps the event loop turning while half a gigabyte is filled and poisoned, where the synchronous fill stops it', async () => {
    // Counted in turns of the loop, not in milliseconds: a loaded machine slows both, and only the async one turns.
    const turnsDuring = async (work: () => Promise<unknown>): Promise<number> => {
      let turns = 0;
      let going = true;
      const spin = (): void => {
        turns++;
        if (going) setImmediate(spin);
      };
      setImmediate(spin);
      await work();
      going = false;
      return turns;
    };
    const big = createHostBuffer('fp64', 64 << 20);
    const syncTurns = await turnsDuring(async () => big.fillRandom(5));
    big.free();
    const fresh = createHostBuffer('fp64', 64 << 20);
    const asyncTurns = await turnsDuring(() => fresh.fillRandomAsync(5));
    expect(syncTurns).toBeLessThanOrEqual(1);
    expect(asyncTurns).toBeGreaterThan(5);
    const poisoned = createHostBuffer('fp64', 64 << 20);
    expect(await turnsDuring(() => poisonAsync(poisoned))).toBeGreaterThan(5);
    expect(poisoned.toFloat64(0, 2).every(Number.isNaN)).toBe(true);
    expect(poisoned.toFloat64((64 << 20) - 1, 1).every(Number.isNaN)).toBe(true);
    fresh.free();
    poisoned.free();
  }, 120_000);

  it('survives a buffer freed while it is being written, and refuses a freed one by name', async () => {
    const b = createHostBuffer('fp32', 32 << 20);
    const writing = b.fillRandomAsync(9);
    b.free();
    await writing;
    expect(b.freed).toBe(true);
    await expectCode(() => b.fillRandomAsync(9), 'BUFFER_FREED');
  });
});
