// A parameter's value as the history, a run's page and a comparison say it, in both languages.
import { describe, expect, it } from 'vitest';

import { paramValueText } from '../../../main/common/pure/i18n/param-text.ts';
import { translator } from '../../../main/common/pure/i18n/index.ts';
import { labDescriptors } from '../../../main/labs/index.ts';

const param = (locale: 'en' | 'es', lab: string, name: string) => {
  const found = labDescriptors(locale).find((l) => l.id === lab)?.parameters.find((p) => p.name === name);
  if (!found) throw new Error(`no ${lab}.${name}`);
  return found;
};

describe('paramValueText', () => {
  it('reads the CPU threads’ 0 as every core, and any other count as threads', () => {
    expect(paramValueText(param('en', 'matmul-breakeven', 'threads'), 0, translator('en'), 'en')).toBe('all cores');
    expect(paramValueText(param('es', 'matmul-breakeven', 'threads'), 0, translator('es'), 'es')).toBe('todos los núcleos');
    expect(paramValueText(param('en', 'matmul-breakeven', 'threads'), 4, translator('en'), 'en')).toBe('4 threads');
  });

  it('writes bytes in binary units, decimals in the reader’s way, counts in the right plural, lists joined', () => {
    expect(paramValueText(param('en', 'transfer', 'maxBytes'), 1073741824, translator('en'), 'en')).toBe('1 GiB');
    expect(paramValueText(param('es', 'vector-function', 'a'), 3.5, translator('es'), 'es')).toBe('3,5');
    expect(paramValueText(param('en', 'matmul', 'warmup'), 1, translator('en'), 'en')).toBe('1 run');
    expect(paramValueText(param('en', 'matmul', 'warmup'), 2, translator('en'), 'en')).toBe('2 runs');
    expect(paramValueText(param('en', 'matmul-breakeven', 'sizes'), [50, 100], translator('en'), 'en')).toBe('50, 100');
  });
});
