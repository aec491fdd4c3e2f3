// The CLI's catalog in English and Spanish: the same messages, each naming the same values, the same plural forms,
// and Spanish words in the Spanish one (a message copied over untranslated is caught, short of the few that are the
// same in both languages).
import { describe, expect, it } from 'vitest';

import { placeholders } from '../../../main/common/pure/message.ts';
import { cli as cliEn } from '../../../main/common/pure/i18n/en/cli.ts';
import { cli as cliEs } from '../../../main/common/pure/i18n/es/cli.ts';
import { cliText } from '../../../main/cli/cli-text.ts';

type Tree = { readonly [key: string]: string | Tree };

function flat(node: string | Tree, prefix = '', out = new Map<string, string>()): Map<string, string> {
  if (typeof node === 'string') out.set(prefix, node);
  else for (const [k, v] of Object.entries(node)) flat(v, prefix ? `${prefix}.${k}` : k, out);
  return out;
}

// Words that read the same in both languages: identifiers, abbreviations, and templates made of values only.
const SAME = new Set([
  'bench.id', 'bench.samples', 'bench.progress', 'devices.id', 'devices.no', 'table.ok', 'table.pointStatus.ok',
  'error.coded', 'run.progress', 'labs.range', 'labs.choice', 'labs.kernels',
  'batch.status.run', 'batch.status.source.squeue', 'batch.status.source.sacct', 'devices.webgpuHeading',
]);

describe('the CLI catalog', () => {
  const en = flat(cliEn as Tree);
  const es = flat(cliEs as Tree);

  it('has the same messages in English and Spanish', () => {
    expect([...es.keys()].sort()).toEqual([...en.keys()].sort());
  });

  it.each([...en.keys()])('%s names the same values in Spanish', (key) => {
    expect(placeholders(es.get(key) ?? ''), es.get(key)).toEqual(placeholders(en.get(key) ?? ''));
  });

  it('is Spanish in Spanish', () => {
    const copied = [...en].filter(([key, text]) => !SAME.has(key) && es.get(key) === text).map(([key]) => key);
    expect(copied).toEqual([]);
  });

  it('picks the form for one by the count, and fills every value', () => {
    const t = cliText('es');
    expect(t('runs.points', { count: 1 })).toBe('1 punto');
    expect(t('runs.points', { count: 0 })).toBe('0 puntos');
    expect(t('table.waived', { count: 6, reason: 'no CUDA device' })).toBe('OMITIDOS (6 puntos): no CUDA device');
    expect(cliText('en')('run.started', { run: 'r1', device: 'cpu', count: 1 })).toBe('run r1 on cpu, 1 point');
  });
});
