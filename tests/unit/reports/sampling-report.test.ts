// The PDF says what sampling did: the method table gives the samples each series took (not the plan's repeats), a
// bullet says how many points converged, stopped on their budget or at the cap and how many are too few to judge,
// and the results table gives each median's interval and sample count, naming the budget where sampling stopped on it.
import { describe, expect, it } from 'vitest';

import type { PointResult, RunRecord } from '../../../main/common/run-record.ts';
import { summarize } from '../../../main/common/pure/statistics.ts';
import { writeRunReport } from '../../../main/reports/report-writer.ts';
import { fixture, pdfText, savePdf, spaced } from './pdf-tools.ts';

// The CPU's matmul-breakeven run, its CPU points resampled: N = 16 took 2 samples (too few), the rest 8 that stopped
// on the budget, with a plan that had asked for 3 repeats.
function sampledRun(): RunRecord {
  const record = fixture('cpu-matmul-breakeven');
  let first = true;
  const points = record.points.map((p): PointResult => {
    if (p.status !== 'ok') return p;
    const n = first ? 2 : 8;
    first = false;
    const hostMs = Array.from({ length: n }, (_, i) => (p.stats?.median ?? 1) * (i % 2 ? 1.1 : 1));
    return { ...p, repeats: n, hostMs, deviceMs: null, clock: 'host', stats: summarize(hostMs), sampling: { samples: n, targetFraction: 0.02, budgetSeconds: 0.5, stop: n === 2 ? 'one-sample-over-budget' : 'budget' } };
  });
  return { ...record, points };
}

describe('the report of an adaptively sampled run', () => {
  it('says how many samples each point took, the median’s interval, and where sampling stopped on the budget', async () => {
    const record = sampledRun();
    const ok = record.points.filter((p) => p.status === 'ok').length;
    const pdf = await writeRunReport(record, { date: new Date('2026-11-24T10:00:00Z'), writerVersion: '0.1.0' });
    const text = spaced(pdfText(savePdf(pdf.bytes)));
    expect(text).toContain(`In this run 0 of ${ok} points converged, ${ok - 1} stopped on their time budget, 0 at the cap, and 1 have fewer than 6 samples: too few to judge.`);
    expect(text).toContain('2 samples: too few to judge');
    expect(text).toContain('8, time budget spent');
    // 8 samples alternating m and 1.1·m: the median 1.05·m, its interval [m, 1.1·m], ±4.8 %.
    expect(text).toContain('±4.8 %');
    // The method table gives the samples taken, 2 to 8, and never the plan's 3.
    expect(text).toMatch(/Timed\b.*\bsamples\b.*\b2–8\b/);
  });
});

describe('the report of a run that held some points to a closer target', () => {
  it('names the usual target and each closer one with the points it held, as the GPU machine’s transfer run took them', async () => {
    const record = JSON.parse(await import('node:fs').then((fs) => fs.readFileSync(new URL('../../fixtures/peer-runs/h100-transfer-peers.json', import.meta.url), 'utf8'))) as RunRecord;
    const closer = record.points.filter((p) => p.status === 'ok' && p.sampling?.targetFraction === 0.01).length;
    expect(closer).toBeGreaterThan(0);
    const pdf = await writeRunReport(record, { date: new Date('2026-11-24T10:00:00Z'), writerVersion: '0.1.0' });
    const text = spaced(pdfText(savePdf(pdf.bytes)));
    expect(text).toContain(`lies within ±2.0 % of it (±1.0 % for ${closer} points, held to a closer margin), or the point’s time budget is spent`);
  });
});
