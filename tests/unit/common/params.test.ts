import { describe, expect, it } from 'vitest';

import { GpuLabError } from '../../../main/common/errors.ts';
import { validateParams } from '../../../main/common/params.ts';
import { LABS, findLab } from '../../../main/labs/index.ts';

function matmul() {
  const lab = findLab('matmul');
  if (!lab) throw new Error('no matmul lab');
  return (raw: unknown) => validateParams('matmul', lab.descriptor.parameters, raw);
}

function rejection(fn: () => unknown): GpuLabError {
  try {
    fn();
  } catch (err) {
    if (err instanceof GpuLabError) return err;
    throw err;
  }
  throw new Error('expected a rejection');
}

describe('lab parameters', () => {
  it('fills defaults', () => {
    expect(matmul()({})).toEqual({ n: 7000, repeats: 10, cpuRepeats: 3, warmup: 1 });
  });

  it('names the parameter, the value and the allowed range', () => {
    const e = rejection(() => matmul()({ n: 70000 }));
    expect(e.code).toBe('INVALID_PARAMS');
    expect(e.message).toBe('Parameter "n" of lab "matmul" = 70000 is not allowed: expected an integer from 16 to 16384');
    expect(e.details).toMatchObject({ parameter: 'n', value: '70000' });
  });

  it.each([
    [{ n: 1.5 }],
    [{ n: '7000' }],
    [{ n: Number.NaN }],
    [{ n: null }],
    [{ repeats: 0 }],
    [{ nn: 10 }],
    [[1, 2]],
    ['n=7000'],
  ])('rejects %j with INVALID_PARAMS', (raw) => {
    expect(rejection(() => matmul()(raw)).code).toBe('INVALID_PARAMS');
  });

  it('rejects lists with values out of range or repeated choices', () => {
    const lab = findLab('elementwise-breakeven');
    if (!lab) throw new Error('no lab');
    expect(rejection(() => validateParams(lab.descriptor.id, lab.descriptor.parameters, { ops: ['add', 'add'] })).code).toBe('INVALID_PARAMS');
    expect(rejection(() => validateParams(lab.descriptor.id, lab.descriptor.parameters, { ops: ['sqrt'] })).message).toContain('a list of 1 to 3 of add, mul, exp');
  });

  it.each([
    ['transfer', { minBytes: 4096, maxBytes: 1024 }, 'Parameters "minBytes" = 4096 and "maxBytes" = 1024 of lab "transfer" are not allowed together: "maxBytes" (largest copy) must be at least "minBytes" (smallest copy)'],
    ['elementwise-breakeven', { minExponent: 6, maxExponent: 3 }, 'Parameters "minExponent" = 6 and "maxExponent" = 3 of lab "elementwise-breakeven" are not allowed together: "maxExponent" (largest size) must be at least "minExponent" (smallest size)'],
  ])('refuses an empty range in %s, naming both parameters, their values and the rule', (id, raw, message) => {
    const lab = findLab(id);
    if (!lab) throw new Error(id);
    const e = rejection(() => validateParams(id, lab.descriptor.parameters, raw));
    expect(e.code).toBe('INVALID_PARAMS');
    expect(e.message).toBe(message);
    expect(e.details).toMatchObject({ lab: id, parameter: Object.keys(raw)[1], other: Object.keys(raw)[0] });
  });

  it('accepts a range of one size, and a range left to its defaults', () => {
    const transfer = findLab('transfer');
    if (!transfer) throw new Error('no lab');
    expect(validateParams('transfer', transfer.descriptor.parameters, { minBytes: 4096, maxBytes: 4096 })).toMatchObject({ minBytes: 4096, maxBytes: 4096 });
    // Defaults take part in the rule: 10⁹ elements at the smallest is above the default largest, 10⁸.
    const elementwise = findLab('elementwise-breakeven');
    if (!elementwise) throw new Error('no lab');
    expect(rejection(() => validateParams('elementwise-breakeven', elementwise.descriptor.parameters, { minExponent: 9 })).message).toContain('"minExponent" = 9 and "maxExponent" = 8');
  });

  it('names only number parameters of the same lab in its rules, and the defaults keep them', () => {
    for (const lab of LABS) {
      for (const p of lab.descriptor.parameters) {
        if ((p.kind !== 'integer' && p.kind !== 'number') || !p.atLeast) continue;
        const other = lab.descriptor.parameters.find((q) => q.name === p.atLeast);
        expect(other?.kind === 'integer' || other?.kind === 'number', `${lab.descriptor.id}.${p.name}`).toBe(true);
      }
      expect(() => validateParams(lab.descriptor.id, lab.descriptor.parameters, {})).not.toThrow();
    }
  });
});
