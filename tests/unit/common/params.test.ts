import { describe, expect, it } from 'vitest';

import { GpuLabError } from '../../../main/common/errors.ts';
import { validateParams } from '../../../main/common/params.ts';
import { findLab } from '../../../main/labs/index.ts';

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
});
