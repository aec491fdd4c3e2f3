// A parameter main refuses reads in the reader's language, from the lab's own descriptor in that language: the
// Spanish app never shows main's English "Parameter … is not allowed", for any lab's number, list or choice.
import { afterEach, describe, expect, it } from 'vitest';

import { GpuLabError } from '../../../../main/common/errors.ts';
import { validateParams } from '../../../../main/common/params.ts';
import { labDescriptors } from '../../../../main/labs/index.ts';
import { paramProblemText, type ParamProblem } from '../../../../main/common/pure/i18n/param-problem.ts';
import { i18n } from '../../../../renderer/i18n/index.ts';

// What useParamCheck keeps of main's refusal.
function problemOf(labId: string, params: Record<string, unknown>): ParamProblem {
  const lab = labDescriptors('en').find((d) => d.id === labId);
  if (!lab) throw new Error(`no lab ${labId}`);
  try {
    validateParams(lab.id, lab.parameters, params);
  } catch (err) {
    if (!(err instanceof GpuLabError)) throw err;
    const d = err.details ?? {};
    const s = (k: string): string | undefined => (typeof d[k] === 'string' ? (d[k] as string) : undefined);
    return { parameter: s('parameter') ?? null, message: err.message, reason: s('reason'), value: s('value'), other: s('other'), otherValue: s('otherValue') };
  }
  throw new Error('accepted');
}

function read(labId: string, params: Record<string, unknown>, locale: 'en' | 'es'): string {
  const lab = labDescriptors(locale).find((d) => d.id === labId);
  if (!lab) throw new Error(`no lab ${labId}`);
  i18n.global.locale.value = locale;
  return paramProblemText(problemOf(labId, params), lab, (key, named) => i18n.global.t(key, named ?? {}));
}

describe('a refused parameter in the reader’s language', () => {
  afterEach(() => {
    i18n.global.locale.value = 'en';
  });

  it('words every kind of parameter of every lab in Spanish, with its Spanish label and unit', () => {
    const wrong: string[] = [];
    for (const lab of labDescriptors('en')) {
      for (const p of lab.parameters) {
        const bad = p.kind === 'integer' || p.kind === 'number' ? p.max + 1 : p.kind === 'choice' ? 'nope' : p.kind === 'integer-list' ? [p.max + 1] : ['nope'];
        const es = read(lab.id, { [p.name]: bad }, 'es');
        if (!/no es válido: se espera/.test(es) || /not allowed|expected/.test(es)) wrong.push(`${lab.id}.${p.name}: ${es}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('names the maximum exponent of the elementwise lab the way the form does, in both languages', () => {
    const es = read('elementwise-breakeven', { maxExponent: 12 }, 'es');
    const label = labDescriptors('es').find((d) => d.id === 'elementwise-breakeven')?.parameters.find((p) => p.name === 'maxExponent')?.label;
    const floor = labDescriptors('es').find((d) => d.id === 'elementwise-breakeven')?.parameters.find((p) => p.name === 'minExponent')?.label;
    expect(es).toBe(`«${label}» = 12 no es válido: se espera un entero de 1 a 9 log10 de elementos, y al menos «${floor}».`);
    expect(read('elementwise-breakeven', { maxExponent: 12 }, 'en')).toBe('«Largest size» = 12 is not allowed: expected an integer from 1 to 9 log10 elements, and at least «Smallest size».');
  });

  it('words a rule between two parameters', () => {
    expect(read('transfer', { minBytes: 4096, maxBytes: 1024 }, 'es')).toMatch(/^«.+» = 1024 no es válido con «.+» = 4096: debe ser al menos «.+»\.$/);
  });
});
