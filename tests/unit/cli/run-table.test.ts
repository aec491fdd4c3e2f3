// The rows `gpu-lab run` prints say how many samples a median rests on, its interval, why sampling stopped where it
// did not converge, and, below the samples an interval needs, that the point is too few to judge.
import { describe, expect, it } from 'vitest';

import { runTable } from '../../../main/cli/run-table.ts';
import { cliText } from '../../../main/cli/cli-text.ts';
import type { PointResult, PointSampling } from '../../../main/common/run-record.ts';
import { summarize } from '../../../main/common/pure/statistics.ts';
import { findingText } from '../../../main/labs/lab-text.ts';
import { runFindings } from '../../../main/runs/run-findings.ts';

function point(hostMs: number[], stop: PointSampling['stop']): PointResult {
  return {
    key: 'p', series: 's', label: 'CPU, N = 64', x: 64, device: 'cpu', status: 'ok', reason: null, error: null,
    work: { flops: 1e6, bytes: 0, elements: 64 }, implementation: 'test', threads: 1, warmup: 1, repeats: hostMs.length,
    clock: 'host', hostMs, deviceMs: null, stats: summarize(hostMs), gflops: 1, gbps: null, verification: null, telemetry: null,
    sampling: { samples: hostMs.length, targetFraction: 0.02, budgetSeconds: 1, stop },
  };
}

describe('the run table', () => {
  const en = runTable(cliText('en'), 'en');
  const es = runTable(cliText('es'), 'es');

  it('heads a samples column and the median\'s interval', () => {
    expect(en.header()).toMatch(/^point\s+status\s+median\s+95 % CI\s+min … max\s+IQR\s+samples\s+rate\s+% of peak\s+rel\. error$/m);
    expect(es.header()).toMatch(/\bIC 95 %\s.*\bmuestras\b/);
  });

  it('shows the count and interval of a converged point, and nothing more', () => {
    const row = en.row(point([1, 1, 1, 1, 1, 1, 1], 'converged'));
    expect(row).toMatch(/±0 %\s.*\s7\s/);
    expect(row).not.toMatch(/too few|budget/);
  });

  it('says a point stopped on its budget, with its interval', () => {
    const row = en.row(point([1, 1.2, 1, 1.2, 1, 1.2, 1, 1.2], 'budget'));
    expect(row).toMatch(/±9.1 %\s.*\s8, budget\s/);
    expect(es.row(point([1, 1.2, 1, 1.2, 1, 1.2, 1, 1.2], 'budget'))).toMatch(/\s8, plazo\s/);
  });

  it('says a point with fewer than six samples is too few to judge, in both languages', () => {
    expect(en.row(point([300], 'one-sample-over-budget'))).toMatch(/—\s.*\s1\s.*1 sample: too few to judge$/m);
    expect(en.row(point([3, 3], 'max-samples'))).toMatch(/2 samples: too few to judge$/m);
    expect(es.row(point([3, 3], 'max-samples'))).toMatch(/2 muestras: muy pocas para juzgar$/m);
  });

  it('writes a noisy median\'s uncertainty as the noisy finding does: the same interval reads the same', () => {
    // A lopsided interval (1 ms to 2.6 ms around 1.1 ms): its two ends, never "±136 %".
    const noisy = point([1, 1.4, 1, 1.9, 1, 1.2, 1, 2.6], 'budget');
    const finding = runFindings([noisy]).find((f) => f.id === 'noisy');
    const cell = /(\[[^\]]+\]|±\S+ %)/.exec(en.row(noisy))?.[1];
    expect(cell).toBe('[1 ms, 2.6 ms]');
    expect(finding && findingText(finding, 'en')).toContain(`, ${cell ?? ''})`);
    const cellEs = /(\[[^\]]+\]|±\S+ %)/.exec(es.row(noisy))?.[1];
    expect(cellEs).toBe('[1 ms; 2,6 ms]');
    expect(finding && findingText(finding, 'es')).toContain(`, ${cellEs ?? ''})`);
  });
});
