// The recorded GPU-machine runs with the course's Python beside GPU Lab (tests/fixtures/peer-runs/) read back from
// their PDFs with pdftotext, in English and in Spanish: each deliverable answers against its named baseline — NumPy for
// the matmul notebook, Numba's @njit loop for the vector function, the fastest CPU series for the break-even, PyTorch's
// .to() at the article's 100 MB for pinned memory — with GPU Lab's beside it; the seeds' own tables are there; Python
// rows the seeds lack are GPU Lab's additions. A recorded run without the Python peers says the course's baseline was
// not measured and why, and answers against GPU Lab's.
import { readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import { compareTimes, estimateOf, type Estimate } from '../../../main/common/pure/claims.ts';
import { formatBreakEven, formatBytes, formatMs, formatTimes, formatWhole } from '../../../main/common/pure/format.ts';
import { pdf as wordsEn } from '../../../main/common/pure/i18n/en/pdf.ts';
import { pdf as wordsEs } from '../../../main/common/pure/i18n/es/pdf.ts';
import type { Locale } from '../../../main/common/pure/locale.ts';
import { type PointResult, type RunRecord } from '../../../main/common/run-record.ts';
import { STORED_RECORD } from '../../../main/runs/stored-record.ts';
import { breakEven, speedupCurve } from '../../../main/labs/analysis.ts';
import { findLab } from '../../../main/labs/index.ts';
import { localizeDescriptor } from '../../../main/labs/lab-text.ts';
import { reportTranslate } from '../../../main/reports/report-context.ts';
import { inReportLocale } from '../../../main/reports/report-locale.ts';
import { writeRunReport } from '../../../main/reports/report-writer.ts';
import { bodyText, fixture, packed, pdfText, savePdf } from './pdf-tools.ts';

const OPTIONS = { author: 'Laura Llamas López', course: 'Programación de GPUs', date: new Date('2026-11-29T10:00:00Z'), writerVersion: '0.1.0' };

function peerRun(name: string): RunRecord {
  return STORED_RECORD.parse(JSON.parse(readFileSync(new URL(`../../fixtures/peer-runs/${name}.json`, import.meta.url), 'utf8')));
}

// The deliverable's pages as a reader copies them out: from its heading to the kernels' sources, whitespace dropped
// (a line may break anywhere).
async function deliverableText(record: RunRecord, locale: Locale): Promise<string> {
  const pdf = await writeRunReport(record, { ...OPTIONS, locale });
  const all = bodyText(pdfText(savePdf(pdf.bytes)), [`GPU Lab 0.1.0 · ${pdf.title}`, `${OPTIONS.author} · ${OPTIONS.course}`]).replace(/Página \d+ de \d+/g, ' ');
  const sections = (locale === 'es' ? wordsEs : wordsEn).sections;
  const from = all.indexOf(`\n${sections.deliverable}\n`);
  expect(from).toBeGreaterThan(0);
  return packed(all.slice(from));
}

// A speedup of two noisy medians as a sentence says it: alone where the range their intervals allow stays within ±5 % of
// it, else with that range, "1.64× (1.5× to 1.8×)".
function speedupSaid(locale: Locale, slow: Estimate, fast: Estimate): string {
  const f = (v: number): string => inReportLocale(locale, () => formatTimes(v));
  const [value, low, high] = [slow.median / fast.median, slow.low / fast.high, slow.high / fast.low];
  if (low >= value * 0.95 && high <= value * 1.05) return f(value);
  return locale === 'en' ? `${f(value)} (${f(low)} to ${f(high)})` : `${f(value)} (de ${f(low)} a ${f(high)})`;
}

// The report's words and numbers for one record in one language.
function wordsFor(record: RunRecord, locale: Locale) {
  const lab = findLab(record.lab)?.descriptor;
  if (!lab) throw new Error(`no lab ${record.lab}`);
  const descriptor = localizeDescriptor(lab, locale);
  const t = reportTranslate(locale);
  const label = (key: string): string => descriptor.series.find((s) => s.key === key)?.label ?? key;
  const point = (key: string, x: number | null = null): PointResult | undefined => record.points.find((p) => p.series === key && (x === null || p.x === x));
  return {
    t,
    label,
    point,
    ms: (key: string, x: number | null = null): string => inReportLocale(locale, () => formatMs(point(key, x)?.stats?.median ?? Number.NaN)),
    times: (v: number): string => inReportLocale(locale, () => formatTimes(v)),
    speedup: (slow: Estimate, fast: Estimate): string => speedupSaid(locale, slow, fast),
    course: (key: string): string => t('pdf.deliverable.against.courseName', { name: label(key) }),
    own: (key: string): string => t('pdf.deliverable.against.ownName', { name: label(key) }),
    // An item of an answer read against `baseline`: the series' time, its speed over the baseline's, and its order.
    item: (key: string, baseline: string, name: string): string => {
      const a = estimateOf(point(key));
      const b = estimateOf(point(baseline));
      if (!a || !b) throw new Error(`${key} or ${baseline} not measured`);
      return t(`pdf.deliverable.against.item.${compareTimes(a, b)}`, { series: name, time: inReportLocale(locale, () => formatMs(a.median)), ratio: speedupSaid(locale, b, a) });
    },
  };
}

describe.each(['en', 'es'] as const)('the recorded runs’ deliverables answer against their named baselines (%s)', (locale) => {
  it('matmul: over NumPy, the notebook’s baseline, with GPU Lab’s CPU BLAS beside it', async () => {
    const record = peerRun('h100-matmul-peers');
    const w = wordsFor(record, locale);
    const text = await deliverableText(record, locale);
    expect(text).toContain(packed(w.t('pdf.deliverable.matmul.notebookCaption', { n: inReportLocale(locale, () => formatWhole(Number(record.params.n))) })));
    expect(text).toContain(packed(w.t('pdf.deliverable.against.note', { course: w.label('numpy-matmul'), own: w.label('cpu-blas') })));
    expect(text).toContain(packed(`${w.course('numpy-matmul')} (${w.ms('numpy-matmul')})`));
    expect(text).toContain(packed(w.item('torch-resident', 'numpy-matmul', w.label('torch-resident'))));
    expect(text).toContain(packed(w.item('gpu-transfers', 'numpy-matmul', w.own('gpu-transfers'))));
    // In the first answer, GPU Lab's CPU BLAS beside the course's baseline, after it.
    const answer = text.slice(text.indexOf(packed(w.t('pdf.deliverable.matmul.q.speedups'))));
    expect(answer.indexOf(packed(`${w.own('cpu-blas')} (${w.ms('cpu-blas')})`))).toBeGreaterThan(answer.indexOf(packed(w.course('numpy-matmul'))));
    expect(answer.indexOf(packed(w.course('numpy-matmul')))).toBeGreaterThanOrEqual(0);
    // The copies of the course's PyTorch path beside cuBLAS's.
    const copies = (w.point('torch-copies')?.stats?.median ?? 0) - (w.point('torch-resident')?.stats?.median ?? 0);
    expect(text).toContain(packed(inReportLocale(locale, () => formatMs(copies))));
  });

  it('vector-function: the notebook’s three tables over Numba’s @njit, its three clocks, and GPU Lab’s additions marked', async () => {
    const record = peerRun('h100-vector-function-peers');
    const w = wordsFor(record, locale);
    const text = await deliverableText(record, locale);
    for (const id of ['cpu', 'cupy', 'numba', 'clocks']) expect(text).toContain(packed(w.t(`pdf.deliverable.vectorFunction.tables.${id}`)));
    expect(text).toContain(packed(w.t('pdf.deliverable.vectorFunction.columns.overBaseline', { baseline: w.label('numba-njit') })));
    expect(text).toContain(packed(`${w.course('numba-njit')} (${w.ms('numba-njit')})`));
    // The GPU with the copies over Numba's loop: CuPy as the notebook writes it, and GPU Lab's fused kernel.
    expect(text).toContain(packed(w.item('cupy-copies', 'numba-njit', w.label('cupy-copies'))));
    expect(text).toContain(packed(w.item('gpu-transfers', 'numba-njit', w.own('gpu-transfers'))));
    // GPU Lab's loop on one core is its own row, 3× faster than Numba's here, and not the baseline.
    expect(text).toContain(packed(w.times((w.point('numba-njit')?.stats?.median ?? 0) / (w.point('cpu-single')?.stats?.median ?? 1))));
    expect(text).toContain(packed(w.t('pdf.deliverable.addition', { library: 'Numba' })));
    expect(text).toContain(packed(w.t('pdf.deliverable.addition', { library: 'CuPy' })));
    // This record's Numba CUDA target was waived on the GPU machine's NumPy 2.5: its Table 3 says why.
    expect(text).toContain(packed("module 'numpy' has no attribute 'row_stack'"));
  });

  it('matmul-breakeven: against the fastest CPU series measured, the other beside it, and where the article measures otherwise', async () => {
    const record = peerRun('h100-matmul-breakeven-peers');
    const w = wordsFor(record, locale);
    const text = await deliverableText(record, locale);
    const sizes = record.params.sizes as number[];
    const logMean = (key: string): number => sizes.reduce((sum, n) => sum + Math.log(w.point(key, n)?.stats?.median ?? 1), 0) / sizes.length;
    const fastest = logMean('torch-cpu') < logMean('cpu') ? 'torch-cpu' : 'cpu';
    const name = fastest === 'torch-cpu' ? w.course(fastest) : w.own(fastest);
    const lead = packed(w.t('pdf.deliverable.matmulBreakeven.a.againstFastest', { cpu: name, rate: '\u0001', items: '' }).split('\u0001')[0] ?? '');
    expect(text).toContain(lead);
    const b = breakEven(speedupCurve(record.points, fastest, 'gpu-transfers'), 1);
    if (b.kind !== 'between') throw new Error('the recorded GPU with copies crosses between two sizes');
    const after = text.slice(text.indexOf(lead));
    expect(after).toContain(packed(`${w.own('gpu-transfers')}`));
    expect(after).toContain(packed(inReportLocale(locale, () => formatBreakEven('matrix-n', b.size))));
    expect(text).toContain(packed(w.t('pdf.deliverable.matmulBreakeven.articleNote')));
    expect(text).toContain(packed(w.t('pdf.deliverable.matmulBreakeven.rowsNote')));
  });

  it('transfer: the article’s three copies, and pinned against pageable at its 100 MB, PyTorch first', async () => {
    const record = peerRun('h100-transfer-peers');
    const w = wordsFor(record, locale);
    const text = await deliverableText(record, locale);
    expect(text).toContain(packed(w.t('pdf.deliverable.transfer.seedCaption')));
    // Each named by its shape as the article writes it, its bytes in the report's one unit for bytes.
    for (const n of [100, 1000, 5000]) {
      expect(text).toContain(packed(w.t('pdf.deliverable.transfer.seedSize', { n: String(n), bytes: inReportLocale(locale, () => formatBytes(4 * n * n)) })));
    }
    // A record from before the article's sizes were planned: the nearest size it measured, said so.
    expect(text).toContain(packed(w.t('pdf.deliverable.transfer.nearestNote')));
    const at = 64 * 2 ** 20;
    const said = (pinned: string, pageable: string, series: string): string => {
      const a = estimateOf(w.point(pinned, at));
      const b = estimateOf(w.point(pageable, at));
      if (!a || !b) throw new Error('no 64 MiB copies');
      return packed(
        w.t(`pdf.deliverable.transfer.a.seedPinned.${compareTimes(a, b)}Nearest`, {
          series,
          at: '64 MiB',
          pinned: inReportLocale(locale, () => formatMs(a.median)),
          pageable: inReportLocale(locale, () => formatMs(b.median)),
          ratio: w.speedup(b, a),
        }),
      );
    };
    // The article's own PyTorch first, then GPU Lab's copy beside it.
    const course = said('torch-h2d-pinned', 'torch-h2d-pageable', w.label('torch-h2d-pinned'));
    expect(text).toContain(course);
    expect(text.slice(text.indexOf(course))).toContain(said('h2d-pinned-sync', 'h2d-pageable-sync', w.own('h2d-pinned-sync')));
  });

  it('a run without the Python peers says the course’s baseline was not measured, and why, and answers against GPU Lab’s', async () => {
    for (const [name, course, own] of [['h100-matmul', 'numpy-matmul', 'cpu-blas'], ['h100-vector-function', 'numba-njit', 'cpu-single']] as const) {
      const record = fixture(name);
      const w = wordsFor(record, locale);
      const text = await deliverableText(record, locale);
      const why = w.t('pdf.deliverable.against.why.noPeers');
      expect(text).toContain(packed(w.t('pdf.deliverable.against.noteNotMeasured', { course: w.label(course), own: w.label(own), why })));
      expect(text).toContain(packed(`${w.own(own)} (${w.ms(own)})`));
      expect(text).not.toContain(packed(w.course(course)));
    }
  });
});
