// Findings read in the app's language from the templates main sends with each lab: the H100's matmul-breakeven run,
// recorded in English before findings were messages, reads in Spanish with decimal commas once main has given its
// findings their messages, and the renderer words every finding as main does.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import type { Finding } from '../../../../main/common/run-record.ts';
import { STORED_RECORD } from '../../../../main/runs/stored-record.ts';
import { findingText } from '../../../../main/labs/lab-text.ts';
import { labDescriptors } from '../../../../main/labs/index.ts';
import { withCurrentFindings } from '../../../../main/runs/current-findings.ts';
import { nestCatalog } from '../../../../main/common/pure/i18n/translate.ts';
import { findingReader } from '../../../../renderer/components/labs/finding-text.ts';

const fixture = JSON.parse(readFileSync(join(import.meta.dirname, '../../../fixtures/runs/h100-matmul-breakeven.json'), 'utf8')) as Record<string, unknown>;
const record = withCurrentFindings(STORED_RECORD.parse(fixture));
const messagesIn = (locale: 'en' | 'es') => labDescriptors(locale).find((d) => d.id === 'matmul-breakeven')?.messages;
const byId = (id: string): Finding => {
  const f = record.findings.find((x) => x.id === id);
  if (!f) throw new Error(`no finding ${id}`);
  return f;
};

describe('a finding in the reader’s language', () => {
  it('reads a recorded English run in Spanish, numbers with a decimal comma', () => {
    const read = findingReader(messagesIn('es'), 'es');
    expect(read(byId('gpu-transfers-break-even'))).toBe('La GPU con transferencias supera a la BLAS de la CPU de GPU Lab (OpenBLAS 0.3.26) a partir de N ≈ 330 (en algún punto entre N = 310 y N = 350, dentro de la incertidumbre de las medianas).');
    expect(read(byId('gpu-transfers-range'))).toBe(
      'GPU con transferencias: 0,24× la velocidad de la BLAS de la CPU de GPU Lab (OpenBLAS 0.3.26) en N = 100, 7,36× en N = 5000.',
    );
  });

  it('reads every finding in English and Spanish exactly as main words it for the CLI and the PDF', () => {
    for (const locale of ['en', 'es'] as const) {
      const read = findingReader(messagesIn(locale), locale);
      for (const f of record.findings) expect(read(f), f.id).toBe(findingText(f, locale));
    }
  });

  it('shows a finding stored as English words by an old version as it was recorded', () => {
    const parsed = STORED_RECORD.parse({ ...fixture, findings: [{ id: 'x', text: 'Recorded words.', value: 1, unit: '', tone: 'info' }] });
    const [old] = parsed.findings;
    if (!old) throw new Error('no finding');
    expect(findingReader(messagesIn('es'), 'es')(old)).toBe('Recorded words.');
    expect(findingReader(messagesIn('en'), 'en')(old)).toBe('Recorded words.');
  });

  it('nests the flat message ids as catalogTranslate reads them', () => {
    expect(nestCatalog({ 'a.b.c': 'x', 'a.b.d': 'y', e: 'z' })).toEqual({ a: { b: { c: 'x', d: 'y' } }, e: 'z' });
  });
});
