// The words beside a parameter's raw number, in the app's own catalogs: 0 CPU threads reads "every logical core",
// an exponent of elements its count; a thread count other than 0 needs none. The descriptors are main's, as the app
// gets them in either language (units translated: "hilos", "log10 de elementos").
import { afterEach, describe, expect, it } from 'vitest';

import { labDescriptors } from '../../../../main/labs/index.ts';
import { valueHint } from '../../../../renderer/components/labs/param-hints.ts';
import { i18n } from '../../../../renderer/i18n/index.ts';

const translate = (key: string, values: Record<string, unknown>): string => i18n.global.t(key, values);
const param = (lab: string, name: string, locale: 'en' | 'es') => {
  const p = labDescriptors(locale).find((d) => d.id === lab)?.parameters.find((x) => x.name === name);
  if (!p) throw new Error(`${lab} has no ${name}`);
  return p;
};

afterEach(() => {
  i18n.global.locale.value = 'en';
});

describe('parameter hints', () => {
  it('say what 0 CPU threads means in both languages, and nothing for a count', () => {
    expect(valueHint(param('matmul-breakeven', 'threads', 'en'), 0, translate)).toBe('= every logical core');
    expect(valueHint(param('matmul-breakeven', 'threads', 'en'), 4, translate)).toBe('');
    i18n.global.locale.value = 'es';
    expect(valueHint(param('matmul-breakeven', 'threads', 'es'), 0, translate)).toBe('= todos los núcleos lógicos');
  });

  it('give the count of elements of an exponent, in Spanish too', () => {
    expect(valueHint(param('elementwise-breakeven', 'maxExponent', 'en'), 6, translate)).toMatch(/^= 1(\.0)? M elements$/);
    i18n.global.locale.value = 'es';
    expect(valueHint(param('elementwise-breakeven', 'maxExponent', 'es'), 6, translate)).toMatch(/^= 1(,0)? M elementos$/);
  });
});
