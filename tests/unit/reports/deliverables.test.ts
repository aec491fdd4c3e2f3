// The course deliverables, computed from the record: each table value and answer is held to what the record itself
// says (its summary, its points' medians and rates), formatted as the app formats it; a run without a GPU says it
// cannot answer, and why, wherever an answer needs the GPU.
import { describe, expect, it } from 'vitest';

import { estimateOf, timeRatio } from '../../../main/common/pure/claims.ts';
import { formatBreakEven, formatBytes, formatCount, formatMs, formatPercent, formatTimes } from '../../../main/common/pure/format.ts';
import type { PointResult, RunRecord } from '../../../main/common/run-record.ts';
import { findLab } from '../../../main/labs/index.ts';
import type { Deliverable } from '../../../main/reports/deliverables/index.ts';
import { labDeliverable } from '../../../main/reports/deliverables/index.ts';
import { reportT } from '../../../main/reports/report-context.ts';
import type { TableCell } from '../../../main/reports/table.ts';
import { FIXTURES, fixture } from './pdf-tools.ts';
import { withCurrentFindings } from '../../../main/runs/current-findings.ts';

function deliverableOf(record: RunRecord): Deliverable {
  const lab = findLab(record.lab)?.descriptor;
  const d = lab ? labDeliverable({ record, lab, t: reportT }) : null;
  if (!d) throw new Error(`no deliverable for ${record.lab}`);
  return d;
}

const text = (c: string | TableCell | undefined): string => (typeof c === 'string' ? c : (c?.text ?? ''));
const cells = (d: Deliverable, table = 0): string[][] => (d.tables[table]?.rows ?? []).map((r) => r.cells.map(text));
const point = (r: RunRecord, series: string, x: number | null = null): PointResult => {
  const p = r.points.find((q) => q.series === series && (x === null || q.x === x));
  if (!p) throw new Error(`no point ${series}@${x}`);
  return p;
};
const median = (p: PointResult): number => p.stats?.median ?? Number.NaN;
const value = (r: RunRecord, key: string): number => {
  const v = r.summary[key];
  if (typeof v !== 'number') throw new Error(`no summary ${key}`);
  return v;
};
const answer = (d: Deliverable, i: number): string => d.answers[i]?.answer ?? '';

describe('deliverables from the H100 runs', () => {
  it('matmul: the time and the speedup of each method, and the copies’ overhead', () => {
    const r = fixture('h100-matmul');
    const d = deliverableOf(r);
    const cpu = median(point(r, 'cpu-blas'));
    for (const [i, series] of ['cpu-blas', 'gpu-transfers', 'gpu-cublas', 'gpu-tiled', 'gpu-naive'].entries()) {
      expect(cells(d)[i]?.[1]).toBe(formatMs(median(point(r, series))));
      expect(cells(d)[i]?.[2]).toBe(formatTimes(cpu / median(point(r, series))));
    }
    const overhead = median(point(r, 'gpu-transfers')) - median(point(r, 'gpu-cublas'));
    expect(answer(d, 1)).toContain(formatMs(overhead));
    expect(answer(d, 1)).toContain(formatPercent(value(r, 'transferShare')));
    expect(answer(d, 2)).toContain(formatTimes(value(r, 'tiledOverNaive')));
  });

  it('vector-function: speedups over one and over all threads, the copy overhead, what fusion gains', () => {
    const r = fixture('h100-vector-function');
    const d = deliverableOf(r);
    const single = value(r, 'cpu-single.ms');
    const threads = value(r, 'cpu-threads.ms');
    const copies = cells(d).find((row) => row[0] === 'GPU fused, with copies');
    expect(copies?.[2]).toBe(formatTimes(single / value(r, 'gpu-transfers.ms')));
    expect(copies?.[3]).toBe(formatTimes(threads / value(r, 'gpu-transfers.ms')));
    expect(copies?.[4]).toBe(formatMs(value(r, 'gpu-transfers.ms') - value(r, 'gpu-fused.ms')));
    expect(answer(d, 1)).toContain(formatPercent(value(r, 'transferShare')));
    expect(answer(d, 2)).toContain(formatTimes(value(r, 'fusionSpeedup')));
    expect(answer(d, 2)).toContain(formatPercent(value(r, 'fusedShareOfPeakBandwidth')));
  });

  it('elementwise-breakeven: the "Entrega" table and the exercise’s answers', () => {
    const r = fixture('h100-elementwise-breakeven');
    const d = deliverableOf(r);
    const rows = cells(d);
    expect(rows.map((row) => row[0])).toEqual(['ADD', 'ADD', 'MUL', 'MUL', 'EXP', 'EXP']);
    for (const [i, op] of ['add', 'add', 'mul', 'mul', 'exp', 'exp'].entries()) {
      const path = i % 2 === 0 ? 'gpu-transfers' : 'gpu-resident';
      const size = r.summary[`${op}.${path}.breakEvenSize`];
      const above = r.summary[`${op}.${path}.breakEvenAbove`];
      // An interpolated size to two significant digits, with the range the medians allow where it has one.
      if (typeof size === 'number') expect(rows[i]?.[2]).toMatch(new RegExp(`^≈ ${formatBreakEven('elements', size)} elements( \\(.+ to .+\\))?$`));
      else if (typeof above === 'number') expect(rows[i]?.[2]).toMatch(new RegExp(`^> ${formatCount(above)} elements`));
      else throw new Error(`${op} ${path}: the fixture has a break-even or a bound`);
      expect(rows[i]?.[3]).toBe(formatTimes(value(r, `${op}.${path}.speedupAt1M`)));
    }
    // The copies dominate a case when they take more than half of the time with transfers.
    let dominated = 0;
    let cases = 0;
    for (const copies of r.points.filter((p) => p.series.endsWith('-gpu-transfers'))) {
      const w = median(copies);
      const res = median(point(r, copies.series.replace('transfers', 'resident'), copies.x));
      cases++;
      if (w - res > w / 2) dominated++;
    }
    expect(answer(d, 3)).toContain(`${dominated} of ${cases} cases (${formatPercent(dominated / cases)})`);
    // Under 1000 elements: the best resident speedup decides.
    const best = Math.max(...r.points.filter((p) => p.series.endsWith('-gpu-resident') && (p.x ?? 0) < 1000).map((p) => median(point(r, p.series.replace('gpu-resident', 'cpu'), p.x)) / median(p)));
    expect(answer(d, 4)).toContain(formatTimes(best));
    expect(answer(d, 4).startsWith(best < 1 ? 'No' : 'Yes')).toBe(true);
    // Which operation gains most, over every size: at each size, the one whose speedup range lies above the others'.
    const sizes = [...new Set(r.points.map((p) => p.x ?? 0))].sort((a, b) => a - b);
    const ahead = new Map<string, string[]>();
    for (const x of sizes) {
      const here = ['add', 'mul', 'exp'].flatMap((op) => {
        const c = estimateOf(point(r, `${op}-cpu`, x));
        const g = estimateOf(point(r, `${op}-gpu-resident`, x));
        return c && g ? [{ op, range: timeRatio(g, c) }] : [];
      });
      const winner = here.find((a) => here.every((b) => b === a || a.range.low > b.range.high));
      if (winner) ahead.set(winner.op, [...(ahead.get(winner.op) ?? []), formatCount(x)]);
    }
    for (const [op, xs] of ahead) expect(answer(d, 1)).toContain(`${op}${ahead.size > 1 ? ' is clearly ahead' : ': its speedup with the data resident is clearly the highest'} at ${xs.join(', ')} elements`);
  });

  it('matmul-breakeven: one row per N and the N from which the GPU with copies wins', () => {
    // As the report reads it: its summary derived again, with the range of the crossing.
    const r = withCurrentFindings(fixture('h100-matmul-breakeven'));
    const d = deliverableOf(r);
    const whole = (text: string | undefined): number => Number((text ?? '').replace(/,/g, ''));
    expect(cells(d).map((row) => whole(row[0]))).toEqual(r.params.sizes);
    for (const row of cells(d)) {
      const n = whole(row[0]);
      expect(row[3]).toBe(formatTimes(median(point(r, 'cpu', n)) / median(point(r, 'gpu-transfers', n))));
    }
    expect(answer(d, 0)).toContain(`N = ${formatBreakEven('matrix-n', value(r, 'gpu-transfers.breakEvenN'))} (somewhere between N = ${formatBreakEven('matrix-n', value(r, 'gpu-transfers.breakEvenNLow'))} and N = ${formatBreakEven('matrix-n', value(r, 'gpu-transfers.breakEvenNHigh'))}`);
  });

  it('transfer: pageable against pinned at every size, and the pinned gain per direction', () => {
    const r = fixture('h100-transfer');
    const d = deliverableOf(r);
    // The sweep's table, after the article's own three copies.
    for (const row of cells(d, 1)) {
      const x = r.points.find((p) => p.series === 'h2d-pinned-sync' && formatBytes(p.x ?? 0) === row[0])?.x ?? null;
      const pinned = point(r, 'h2d-pinned-sync', x).gbps ?? 0;
      const pageable = point(r, 'h2d-pageable-sync', x).gbps ?? 1;
      expect(row[5]).toBe(formatTimes(pinned / pageable));
    }
    expect(answer(d, 1)).toContain(formatTimes(value(r, 'h2d.pinnedOverPageable')));
    expect(answer(d, 1)).toContain(formatTimes(value(r, 'd2h.pinnedOverPageable')));
  });

  it('dtypes: the bits and the memory of each type, and the fastest type', () => {
    const r = fixture('h100-dtypes');
    const d = deliverableOf(r);
    expect(cells(d).map((row) => [row[0], row[1], row[2]])).toEqual(
      ['fp64', 'fp32', 'tf32', 'fp16', 'bf16', 'int8'].map((t) => [t, String((value(r, `${t}.footprintBytes`) / 4096 ** 2) * 8), formatBytes(value(r, `${t}.footprintBytes`))]),
    );
    const fastest = r.points.filter((p) => p.series === 'gpu').sort((a, b) => (b.gflops ?? 0) - (a.gflops ?? 0))[0];
    expect(answer(d, 1).startsWith(`${fastest?.key.replace('gpu-', '')}:`)).toBe(true);
  });

  it('timing-pitfalls: each mistake, wrong ÷ right', () => {
    const r = fixture('h100-timing-pitfalls');
    const d = deliverableOf(r);
    const ratios = ['sync', 'gpu-cold', 'cpu-cold', 'threads'].map((id) => formatTimes(value(r, `${id}.wrongMs`) / value(r, `${id}.rightMs`)));
    expect(cells(d).map((row) => row[3])).toEqual(ratios);
    expect(answer(d, 0)).toContain(formatTimes(value(r, 'sync.rightMs') / value(r, 'sync.wrongMs')));
  });
});

describe('deliverables from the CPU-only runs', () => {
  it.each(FIXTURES.filter((n) => n.startsWith('cpu-')))('%s: an answer that needs the GPU says it cannot, with the waiver’s reason', (name) => {
    const r = fixture(name);
    const d = deliverableOf(r);
    const reason = r.points.find((p) => p.status === 'waived')?.reason ?? '';
    expect(reason.length).toBeGreaterThan(10);
    const cannot = d.answers.filter((a) => a.answer.startsWith('This run cannot answer it'));
    expect(cannot.length).toBeGreaterThan(0);
    for (const a of cannot) expect(a.answer).toContain(`the GPU series were waived (${reason})`);
    // The table still lists every row, the GPU's marked waived.
    expect(cells(d).flat()).toContain('waived');
  });

  it('answers what the CPU alone can: the threads of the vector function', () => {
    const r = fixture('cpu-vector-function');
    const threads = deliverableOf(r).answers[3]?.answer ?? '';
    expect(threads).toContain(formatMs(value(r, 'cpu-threads.ms')));
    expect(threads).toContain(formatTimes(value(r, 'cpu-single.ms') / value(r, 'cpu-threads.ms')));
  });
});
