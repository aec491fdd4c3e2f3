// The words beside a parameter's raw number, in the app's catalogs: 0 CPU threads reads "every logical core", a
// count of elements or bytes its size; a thread count other than 0 needs none.
import { describe, expect, it } from 'vitest';

import { labDescriptors } from '../../../../main/labs/index.ts';
import { valueHint } from '../../../../renderer/components/labs/param-hints.ts';
import { labs as en } from '../../../../renderer/i18n/en/labs.ts';
import { labs as es } from '../../../../renderer/i18n/es/labs.ts';

const catalogs = { en, es };
const translate = (locale: 'en' | 'es') => (key: string, values: Record<string, unknown>): string => {
  const path = key.replace(/^labs\./, '').split('.');
  let text: unknown = catalogs[locale];
  for (const part of path) text = (text as Record<string, unknown>)[part];
  if (typeof text !== 'string') throw new Error(`no ${key} in ${locale}`);
  return text.replace(/\{(\w+)\}/g, (_, name: string) => String(values[name]));
};
// The descriptor as main sends it to an app shown in `locale`: units translated ("hilos", "log10 de elementos").
const param = (lab: string, name: string, locale: 'en' | 'es' = 'en') => {
  const p = labDescriptors(locale).find((d) => d.id === lab)?.parameters.find((x) => x.name === name);
  if (!p) throw new Error(`${lab} has no ${name}`);
  return p;
};

describe('parameter hints', () => {
  it('say what 0 CPU threads means in both languages, and nothing for a count', () => {
    expect(valueHint(param('matmul-breakeven', 'threads'), 0, translate('en'))).toBe('= every logical core');
    expect(valueHint(param('matmul-breakeven', 'threads', 'es'), 0, translate('es'))).toBe('= todos los núcleos lógicos');
    expect(valueHint(param('matmul-breakeven', 'threads'), 4, translate('en'))).toBe('');
  });

  it('give a size in elements for the exponent of elementwise-breakeven, in Spanish too', () => {
    expect(valueHint(param('elementwise-breakeven', 'maxExponent'), 6, translate('en'))).toMatch(/^= 1(\.0)? M/);
    expect(valueHint(param('elementwise-breakeven', 'maxExponent', 'es'), 6, translate('es'))).toMatch(/^= 1/);
  });
});
