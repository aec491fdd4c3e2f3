// zeroFill, which the playground's buffers go through when they are made and again before they are freed (on a
// class's server, so that a student's kernel reads nothing an earlier run left): every byte of every element set to
// 0, of every data type, through the addon's own fill. Here on host buffers; the device's memory is checked on the
// GPU machine (tests/gpu/playground-zeroed.test.ts).
import { describe, expect, it } from 'vitest';

import { createHostBuffer, DTYPES, poison, zeroFill } from '../../native/index.ts';
import { freshSeed } from './helpers.ts';

describe('zeroFill', () => {
  it.each(DTYPES)('%s: sets every element of a filled buffer to 0, its last included', (dtype) => {
    const length = 1_000_003;
    const buffer = createHostBuffer(dtype, length).fillRandom(freshSeed(), dtype === 'int8' ? { low: 1, high: 100 } : { low: 1, high: 5 });
    poison(buffer);
    zeroFill(buffer);
    const values = buffer.toFloat64();
    expect(values.length).toBe(length);
    expect(values.every((v) => Object.is(v, 0))).toBe(true);
    buffer.free();
  });

  it('refuses what is not a buffer, and a freed one, naming it', () => {
    expect(() => zeroFill({} as never)).toThrow(/`buffer`/);
    const freed = createHostBuffer('fp32', 4);
    freed.free();
    expect(() => zeroFill(freed)).toThrow();
  });
});
