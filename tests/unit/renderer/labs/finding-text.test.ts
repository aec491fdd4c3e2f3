// Findings read in the app's language from the templates main sends with each lab: the H100's matmul-breakeven run,
// recorded in English before findings were messages, reads in Spanish with decimal commas once main has given its
// findings their messages; a finding without a message, or with a template this version lacks, keeps its English.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { msg, n } from '../../../../main/common/message.ts';
import type { Finding, RunRecord } from '../../../../main/common/run-record.ts';
import { labDescriptors } from '../../../../main/labs/index.ts';
import { withCurrentFindings } from '../../../../main/runs/current-findings.ts';
import { findingReader, nestCatalog } from '../../../../renderer/components/labs/finding-text.ts';

const record = withCurrentFindings(
  JSON.parse(readFileSync(join(import.meta.dirname, '../../../fixtures/runs/h100-matmul-breakeven.json'), 'utf8')) as RunRecord,
);
const messagesIn = (locale: 'en' | 'es') => labDescriptors(locale).find((d) => d.id === 'matmul-breakeven')?.messages;
const byId = (id: string): Finding => {
  const f = record.findings.find((x) => x.id === id);
  if (!f) throw new Error(`no finding ${id}`);
  return f;
};

describe('a finding in the reader’s language', () => {
  it('reads a recorded English run in Spanish, numbers with a decimal comma', () => {
    const read = findingReader(messagesIn('es'), 'es');
    expect(read(byId('gpu-transfers-break-even'))).toBe('La GPU con transferencias supera a la CPU a partir de N ≈ 330.');
    expect(read(byId('gpu-transfers-range'))).toBe(
      'GPU con transferencias: 0,24× la velocidad de la CPU en N = 100, 7,36× en N = 5000; como máximo 7,204 TFLOP/s, en N = 5000.',
    );
  });

  it('reads the same finding in English as it was recorded', () => {
    const read = findingReader(messagesIn('en'), 'en');
    for (const f of record.findings.filter((x) => x.message)) expect(read(f)).toBe(f.text);
  });

  it('keeps the recorded text where there is no message or no template for it', () => {
    const read = findingReader(messagesIn('es'), 'es');
    const old: Finding = { id: 'x', text: 'Recorded words.', value: 1, unit: '', tone: 'info' };
    expect(read(old)).toBe('Recorded words.');
    const unknown: Finding = { ...old, message: msg('matmul-breakeven.findings.gone', { rate: n.rate(1080, 'GFLOP/s') }) };
    expect(read(unknown)).toBe('Recorded words.');
    const unknownSeries: Finding = { ...old, message: msg('matmul-breakeven.findings.overtakes', { series: msg('elsewhere.series.x'), size: 3 }) };
    expect(read(unknownSeries)).toBe('Recorded words.');
    expect(findingReader(undefined, 'es')(byId('cpu-rate'))).toBe(byId('cpu-rate').text);
  });

  it('nests the flat message ids as catalogTranslate reads them', () => {
    expect(nestCatalog({ 'a.b.c': 'x', 'a.b.d': 'y', e: 'z' })).toEqual({ a: { b: { c: 'x', d: 'y' } }, e: 'z' });
  });
});
