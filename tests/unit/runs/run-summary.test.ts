// A run as the history lists it leads with the finding its page leads with: the same headline, derived again from
// the points where the record's findings come from an older analysis, and the parameters it ran with.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { orderFindings } from '../../../main/common/pure/finding-order.ts';
import type { RunRecord } from '../../../main/common/run-record.ts';
import { ANALYSIS_VERSION, findLab } from '../../../main/labs/index.ts';
import { findingText } from '../../../main/labs/lab-text.ts';
import { withCurrentFindings } from '../../../main/runs/current-findings.ts';
import { runSummary } from '../../../main/runs/run-summary.ts';
import { STORED_RECORD } from '../../../main/runs/stored-record.ts';

const dir = join(import.meta.dirname, '..', '..', 'fixtures', 'runs');
const fixtures: RunRecord[] = readdirSync(dir).map((name) => STORED_RECORD.parse(JSON.parse(readFileSync(join(dir, name), 'utf8'))));

function pageHeadline(record: RunRecord) {
  const lab = findLab(record.lab);
  return orderFindings(withCurrentFindings(record).findings, lab?.descriptor.headline ?? []).headline;
}

describe('runSummary', () => {
  it.each(fixtures.map((r) => [r.id, r] as const))('%s: the run page’s headline and the parameters', (_, record) => {
    const summary = runSummary(record);
    expect(summary.headline).toEqual(pageHeadline(record));
    expect(summary.params).toEqual(record.params);
  });

  it('derives the headline again where the record’s findings come from an older analysis', () => {
    const record = fixtures.find((r) => r.lab === 'matmul-breakeven' && r.device === 'cuda:0');
    if (!record) throw new Error('no H100 break-even run');
    const stale: RunRecord = { ...record, analysisVersion: ANALYSIS_VERSION - 1, findings: record.findings.map((f) => ({ ...f, value: 1 })) };
    expect(runSummary(stale).headline?.value).toBeCloseTo(332, 0);
    // The record's own findings, where they are this version's.
    const current: RunRecord = { ...stale, analysisVersion: ANALYSIS_VERSION };
    expect(runSummary(current).headline?.value).toBe(1);
  });

  it('names the CPU in the headline of a run stored by the analysis before the CPU side was named (version 3)', () => {
    const record = fixtures.find((r) => r.lab === 'matmul-breakeven' && r.device === 'cuda:0');
    if (!record) throw new Error('no H100 break-even run');
    // As version 3 stored it: the break-even's message without the CPU's name, which the catalog now asks for.
    const v3: RunRecord = {
      ...record,
      analysisVersion: 3,
      findings: [{ id: 'gpu-transfers-break-even', message: { key: 'matmul-breakeven.findings.overtakes', values: { series: { key: 'matmul-breakeven.series.gpu-transfers' }, size: 330 } }, value: 332, unit: 'N', tone: 'info' }],
    };
    const headline = runSummary(v3).headline;
    if (!headline) throw new Error('no headline');
    expect(findingText(headline, 'en')).toMatch(/^The GPU with transfers overtakes GPU Lab’s CPU BLAS \(OpenBLAS 0\.3\.26\) from about N = /);
    expect(findingText(headline, 'es')).toMatch(/^La GPU con transferencias supera a la BLAS de la CPU de GPU Lab \(OpenBLAS 0\.3\.26\) a partir de N ≈ /);
  });
});
