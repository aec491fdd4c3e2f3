// Property tests of what each course deliverable answers against (DESIGN §10, "Baselines"): over generated runs —
// any medians and spreads, and the course's own baseline series measured, waived (its library missing), failed, left
// out by --peers none, or left out of a --peers list — every answer names its baseline and reads its figures over the
// right one: the course's where it ran, GPU Lab's beside it; GPU Lab's where it did not, with the run's own reason.
// In English and in Spanish, with the report's own words and numbers. Rows of Python code the seeds do not have are
// marked GPU Lab's additions, never the course's code.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { compareTimes, estimateOf, type Estimate } from '../../../main/common/pure/claims.ts';
import { formatBreakEven, formatMs, formatTimes } from '../../../main/common/pure/format.ts';
import type { LabDescriptor } from '../../../main/common/lab-descriptor.ts';
import type { Locale } from '../../../main/common/pure/locale.ts';
import type { PeerLibrary } from '../../../main/common/peer-protocol.ts';
import type { RunRecord } from '../../../main/common/run-record.ts';
import { breakEven, speedupCurve } from '../../../main/labs/analysis.ts';
import type { PlannedPoint } from '../../../main/labs/lab.ts';
import { localizeDescriptor } from '../../../main/labs/lab-text.ts';
import type { Deliverable } from '../../../main/reports/deliverables/index.ts';
import { labDeliverable } from '../../../main/reports/deliverables/index.ts';
import { reportTranslate } from '../../../main/reports/report-context.ts';
import { inReportLocale } from '../../../main/reports/report-locale.ts';
import type { TableCell } from '../../../main/reports/table.ts';
import { STATES, expectedWhy, lab, median, point, runOf, type State } from './peer-runs.ts';

interface Read {
  d: Deliverable;
  t: ReturnType<typeof reportTranslate>;
  label: (key: string) => string;
  // A figure as the report prints it in this locale.
  ms: (v: number) => string;
  times: (v: number) => string;
  // How many times faster `fast` is than `slow`, with the range their intervals allow where it passes ±5 % of it.
  speedup: (slow: Estimate, fast: Estimate) => string;
  // A break-even N, to the two significant digits an interpolation gives.
  breakEven: (v: number) => string;
}

function read(record: RunRecord, locale: Locale): Read {
  const descriptor = localizeDescriptor(lab(record.lab).descriptor, locale);
  const t = reportTranslate(locale);
  const d = inReportLocale(locale, () => labDeliverable({ record, lab: descriptor, t }));
  if (!d) throw new Error(`no deliverable for ${record.lab}`);
  const label = (key: string): string => descriptor.series.find((s) => s.key === key)?.label ?? key;
  return {
    d,
    t,
    label,
    ms: (v) => inReportLocale(locale, () => formatMs(v)),
    times: (v) => inReportLocale(locale, () => formatTimes(v)),
    speedup: (slow, fast) => speedupSaid(locale, slow, fast),
    breakEven: (v) => inReportLocale(locale, () => formatBreakEven('matrix-n', v)),
  };
}

// A speedup of two noisy medians as a sentence says it: alone where the range their intervals allow stays within ±5 % of
// it, else with that range, "1.64× (1.5× to 1.8×)".
function speedupSaid(locale: Locale, slow: Estimate, fast: Estimate): string {
  const f = (v: number): string => inReportLocale(locale, () => formatTimes(v));
  const [value, low, high] = [slow.median / fast.median, slow.low / fast.high, slow.high / fast.low];
  if (low >= value * 0.95 && high <= value * 1.05) return f(value);
  return locale === 'en' ? `${f(value)} (${f(low)} to ${f(high)})` : `${f(value)} (de ${f(low)} a ${f(high)})`;
}

// A series as the answers name it: the course's Python by its label, GPU Lab's own as GPU Lab's.
function named(r: Read, descriptor: LabDescriptor, key: string): string {
  return descriptor.series.find((s) => s.key === key)?.peer ? r.label(key) : r.t('pdf.deliverable.against.ownName', { name: r.label(key) });
}

// The item an answer must hold for `key` read against `baseline`: its time, its speed as a multiple of the baseline's,
// and faster, slower or neither as the two intervals say.
function item(r: Read, descriptor: LabDescriptor, record: RunRecord, key: string, baseline: string): string | null {
  const p = point(record, key);
  const b = point(record, baseline);
  const ep = estimateOf(p);
  const eb = estimateOf(b);
  if (!ep || !eb) return null;
  return r.t(`pdf.deliverable.against.item.${compareTimes(ep, eb)}`, { series: named(r, descriptor, key), time: r.ms(median(p)), ratio: r.speedup(eb, ep) });
}

const samples = fc.array(fc.double({ min: 0.85, max: 1.15, noNaN: true }), { minLength: 6, maxLength: 6 });
const state = fc.constantFrom(...STATES);
const factor = fc.double({ min: 0.05, max: 20, noNaN: true });

// The answer against the baseline the state calls for: the course's, with GPU Lab's beside it, or GPU Lab's with why.
function checkAgainst(record: RunRecord, s: State, o: { library: PeerLibrary; course: string; own: string; answer: string; series: readonly string[]; beside?: string }, locale: Locale): void {
  const r = read(record, locale);
  const descriptor = localizeDescriptor(lab(record.lab).descriptor, locale);
  const baseline = s === 'ran' ? o.course : o.own;
  const name = r.t(s === 'ran' ? 'pdf.deliverable.against.courseName' : 'pdf.deliverable.against.ownName', { name: r.label(baseline) });
  expect(o.answer, o.answer).toContain(`${name} (${r.ms(median(point(record, baseline)))})`);
  // The course's baseline first; GPU Lab's own only after it, beside it.
  if (s === 'ran') expect(o.answer.indexOf(name)).toBeLessThan(o.answer.indexOf(r.t('pdf.deliverable.against.ownName', { name: r.label(o.own) })) >>> 0);
  else {
    expect(o.answer).not.toContain(r.t('pdf.deliverable.against.courseName', { name: r.label(o.course) }));
    expect(o.answer).toContain(expectedWhy(record, s, o.library, o.course, r.t, locale));
  }
  // Every series that ran is read over that baseline; GPU Lab's beside it over its own.
  for (const key of o.series) {
    const expected = item(r, descriptor, record, key, baseline);
    if (expected) expect(o.answer, o.answer).toContain(expected);
    if (o.beside && s === 'ran') {
      const beside = item(r, descriptor, record, key, o.beside);
      if (beside) expect(o.answer).toContain(beside);
    }
  }
}

describe('each deliverable answers against the course’s baseline when it ran, and against GPU Lab’s with the run’s reason when not', () => {
  it('matmul: over NumPy, GPU Lab’s CPU BLAS beside it; the table’s speedups over the same', () => {
    fc.assert(
      fc.property(state, factor, factor, factor, samples, (s, numpy, copies, resident, shape) => {
        const ms = (p: PlannedPoint): number =>
          ({ 'cpu-blas': 100, 'numpy-matmul': 100 * numpy, 'torch-copies': 30 * copies, 'gpu-transfers': 25 * copies, 'torch-resident': 5 * resident, 'gpu-cublas': 5 * resident })[p.series] ?? 10;
        const record = runOf('matmul', { n: 1000 }, s, 'numpy', 'numpy-matmul', ms, shape);
        for (const locale of ['en', 'es'] as const) {
          const r = read(record, locale);
          const answer = r.d.answers[0]?.answer ?? '';
          checkAgainst(record, s, { library: 'numpy', course: 'numpy-matmul', own: 'cpu-blas', answer, series: ['torch-copies', 'torch-resident', 'gpu-transfers', 'gpu-cublas'], beside: 'cpu-blas' }, locale);
          // Each table's speedup column names the baseline; the baseline's own row reads 1× and is marked so.
          const baseline = s === 'ran' ? 'numpy-matmul' : 'cpu-blas';
          for (const table of r.d.tables) {
            expect(table.columns[2]?.title).toContain(r.label(baseline));
            const own = table.rows.find((row) => text(row.cells[0]) === r.label(baseline));
            if (own) expect(own.cells[2]).toEqual({ text: r.times(1), note: r.t('pdf.deliverable.baseline') });
          }
        }
      }),
      { numRuns: 80 },
    );
  });

  it('vector-function: over Numba’s @njit, GPU Lab’s every-thread loop beside it, in the copies question and in when the GPU is worth it', () => {
    fc.assert(
      fc.property(state, factor, factor, samples, (s, njit, copies, shape) => {
        const ms = (p: PlannedPoint): number =>
          ({ 'cpu-single': 5, 'cpu-threads': 0.7, 'numba-njit': 5 * njit, 'gpu-transfers': 10 * copies, 'cupy-copies': 18 * copies, 'numba-cuda-copies': 17 * copies, 'gpu-fused': 0.05, 'cupy-notebook': 0.2, 'numba-cuda-vectorize': 0.06 })[p.series] ?? 1;
        const record = runOf('vector-function', {}, s, 'numba', 'numba-njit', ms, shape);
        for (const locale of ['en', 'es'] as const) {
          const r = read(record, locale);
          const copiesAnswer = r.d.answers[0]?.answer ?? '';
          checkAgainst(record, s, { library: 'numba', course: 'numba-njit', own: 'cpu-single', answer: copiesAnswer, series: ['cupy-copies', 'numba-cuda-copies', 'gpu-transfers'], beside: 'cpu-threads' }, locale);
          // "When is the GPU worth it?" names the same baseline first, and GPU Lab's every-thread loop after it.
          const worth = r.d.answers[4]?.answer ?? '';
          const baseline = r.t(s === 'ran' ? 'pdf.deliverable.against.courseName' : 'pdf.deliverable.against.ownName', { name: r.label(s === 'ran' ? 'numba-njit' : 'cpu-single') });
          const threads = r.t('pdf.deliverable.against.ownName', { name: r.label('cpu-threads') });
          expect(worth.indexOf(baseline), worth).toBeGreaterThanOrEqual(0);
          expect(worth.indexOf(threads)).toBeGreaterThan(worth.indexOf(baseline));
          if (s !== 'ran') expect(worth).toContain(expectedWhy(record, s, 'numba', 'numba-njit', r.t, locale));
          // The notebook's tables appear where the run has any of the notebook's series; the first says what over.
          const noteKey = s === 'ran' ? 'pdf.deliverable.against.note' : 'pdf.deliverable.against.noteNotMeasured';
          expect(r.d.tables.flatMap((table) => table.notes).some((note) => note.startsWith(r.t(noteKey, { course: r.label('numba-njit'), own: r.label('cpu-single'), why: '' }).slice(0, 25)))).toBe(true);
          // Without Numba asked, the notebook's CPU and CuPy tables stay and its Numba clocks are not planned.
          expect(r.d.tables.length).toBe({ noPeers: 1, notAsked: 4, ran: 5, waived: 5, failed: 5 }[s]);
        }
      }),
      { numRuns: 80 },
    );
  });

  it('matmul-breakeven: against the fastest CPU series measured, named, the other beside it; the crossing is that CPU’s', () => {
    const sizes = [100, 200, 500, 1000];
    const states = fc.constantFrom<State>('ran', 'waived', 'noPeers');
    fc.assert(
      fc.property(states, factor, fc.array(factor, { minLength: 4, maxLength: 4 }), samples, (s, torchSpeed, gpuOverCpu, shape) => {
        // Both CPUs grow as N³; PyTorch's by its own factor; the GPU with the copies crosses where the factors say.
        const ms = (p: PlannedPoint): number => {
          const n = p.x ?? 100;
          const cpu = (n / 100) ** 3;
          const i = sizes.indexOf(n);
          return { cpu, 'torch-cpu': cpu / torchSpeed, 'gpu-transfers': cpu * (gpuOverCpu[i] ?? 1), 'torch-transfers': cpu * (gpuOverCpu[i] ?? 1) * 1.1, 'gpu-resident': cpu * 0.1, 'torch-resident': cpu * 0.1 }[p.series] ?? 1;
        };
        const record = runOf('matmul-breakeven', { sizes }, s, 'torch', 'torch-cpu', ms, shape);
        // The fastest: the smaller geometric mean of median times over the sizes both measured.
        const logMean = (key: string): number => sizes.reduce((sum, n) => sum + Math.log(median(point(record, key, n))), 0) / sizes.length;
        const fastest = s === 'ran' && logMean('torch-cpu') < logMean('cpu') ? 'torch-cpu' : 'cpu';
        const other = fastest === 'cpu' ? 'torch-cpu' : 'cpu';
        for (const locale of ['en', 'es'] as const) {
          const r = read(record, locale);
          const crossing = r.d.answers[0]?.answer ?? '';
          const name = r.t(fastest === 'torch-cpu' ? 'pdf.deliverable.against.courseName' : 'pdf.deliverable.against.ownName', { name: r.label(fastest) });
          const lead = r.t('pdf.deliverable.matmulBreakeven.a.againstFastest', { cpu: name, rate: '', items: '' }).split('(')[0] ?? '';
          // After the course's reason where it gave no figure, the sentence goes on in lower case.
          const at = crossing.indexOf(lead.trim().slice(1));
          expect(at, crossing).toBeGreaterThan(0);
          if (s !== 'ran') expect(crossing).toContain(expectedWhy(record, s, 'torch', 'torch-cpu', r.t, locale));
          // GPU Lab's GPU with the copies overtakes that CPU where the lab's own break-even puts it.
          const b = breakEven(speedupCurve(record.points, fastest, 'gpu-transfers'), 1);
          const first = crossing.slice(at).split(/\. (?:Against|Frente a) /)[0] ?? '';
          if (b.kind === 'between') expect(first, crossing).toContain(`N ${locale === 'en' ? '= ' : '≈ '}${r.breakEven(b.size)}`);
          // The other CPU is beside it, named, where it ran.
          if (s === 'ran') {
            const otherName = r.t(other === 'torch-cpu' ? 'pdf.deliverable.against.courseName' : 'pdf.deliverable.against.ownName', { name: r.label(other) });
            expect(crossing.indexOf(otherName), crossing).toBeGreaterThan(crossing.indexOf(name));
          } else expect(crossing).not.toContain(r.t('pdf.deliverable.against.courseName', { name: r.label('torch-cpu') }));
        }
      }),
      { numRuns: 80 },
    );
  });

  it('transfer: pinned against pageable at the article’s 100 MB, PyTorch’s .to() first, GPU Lab’s copy beside it', () => {
    const states = fc.constantFrom<State>('ran', 'waived', 'noPeers', 'notAsked');
    fc.assert(
      fc.property(states, fc.double({ min: 0.3, max: 5, noNaN: true }), samples, (s, pinnedGain, shape) => {
        const ms = (p: PlannedPoint): number => {
          const bytes = p.x ?? 1;
          const pageable = 0.01 + bytes / 12e6;
          return p.series.includes('pinned') ? 0.01 + bytes / (12e6 * pinnedGain) : pageable;
        };
        const record = runOf('transfer', { minBytes: 1 << 20, maxBytes: 1 << 28, directions: ['h2d'], modes: ['sync'] }, s, 'torch', 'torch-h2d-pinned', ms, shape);
        for (const locale of ['en', 'es'] as const) {
          const r = read(record, locale);
          const pinned = r.d.answers[1]?.answer ?? '';
          const descriptor = localizeDescriptor(lab('transfer').descriptor, locale);
          const pairs = s === 'ran' ? [['torch-h2d-pageable', 'torch-h2d-pinned'], ['h2d-pageable-sync', 'h2d-pinned-sync']] : [['h2d-pageable-sync', 'h2d-pinned-sync']];
          const at = 100_000_000;
          for (const [pageableKey = '', pinnedKey = ''] of pairs) {
            const a = estimateOf(point(record, pinnedKey, at));
            const b = estimateOf(point(record, pageableKey, at));
            if (!a || !b) throw new Error('the article’s 100 MB was not planned');
            const said = r.t(`pdf.deliverable.transfer.a.seedPinned.${compareTimes(a, b)}`, { series: named(r, descriptor, pinnedKey), pinned: r.ms(a.median), pageable: r.ms(b.median), ratio: r.speedup(b, a) });
            expect(pinned, pinned).toContain(said);
          }
          if (s === 'ran') expect(pinned.indexOf(r.label('torch-h2d-pinned'))).toBeLessThan(pinned.indexOf(named(r, descriptor, 'h2d-pinned-sync')));
          else {
            const said = r.t('pdf.deliverable.transfer.a.seedPinned.faster', { series: r.label('torch-h2d-pinned'), pinned: '\u0001', pageable: '', ratio: '' }).split('\u0001')[0] ?? '';
            expect(pinned).not.toContain(said);
            expect(pinned).toContain(expectedWhy(record, s, 'torch', 'torch-h2d-pinned', r.t, locale));
          }
          // The bandwidth's growth is read first on the article's own pageable .to(), where it ran.
          const growth = r.d.answers[0]?.answer ?? '';
          const first = s === 'ran' ? r.label('torch-h2d-pageable') : named(r, descriptor, 'h2d-pageable-sync');
          expect(growth.indexOf(first), growth).toBeGreaterThanOrEqual(0);
          expect(growth.indexOf(first)).toBeLessThan(growth.indexOf(named(r, descriptor, 'h2d-pinned-sync')));
        }
      }),
      { numRuns: 40 },
    );
  });
});

const text = (c: string | TableCell | undefined): string => (typeof c === 'string' ? c : (c?.text ?? ''));
const marks = (d: Deliverable): Map<string, string> =>
  new Map(d.tables.flatMap((table) => table.rows.flatMap((row) => row.cells.flatMap((c) => (typeof c === 'object' && c.note?.startsWith('Python · ') ? [[text(row.cells[0]), c.note] as [string, string]] : [])))));

describe('Python rows the seeds do not have read as GPU Lab’s additions, never as the course’s code', () => {
  it.each([
    ['vector-function', {}, ['numba-parallel', 'cupy-fused'], ['numba-njit', 'numpy-notebook', 'cupy-copies', 'cupy-notebook', 'numba-cuda-copies', 'numba-cuda-vectorize']],
    ['dtypes', { n: 1024 }, ['torch'], []],
    ['transfer', { minBytes: 1 << 20, maxBytes: 1 << 28 }, ['torch-d2h-pageable', 'torch-d2h-pinned'], ['torch-h2d-pageable', 'torch-h2d-pinned']],
  ] as const)('%s', (id, params, additions, course) => {
    const record = runOf(id, params, 'ran', 'torch', '', () => 1, [1, 1.01, 0.99, 1, 1.02, 0.98]);
    const descriptor = lab(id).descriptor;
    expect(descriptor.series.filter((s) => s.addition).map((s) => s.key).sort()).toEqual([...additions].sort());
    for (const locale of ['en', 'es'] as const) {
      const r = read(record, locale);
      const found = marks(r.d);
      const addition = locale === 'en' ? 'GPU Lab’s addition' : 'añadido por GPU Lab';
      const courses = locale === 'en' ? 'the course’s code' : 'el código del curso';
      // dtypes names its rows by type, transfer by size or direction: there the marks are counted, not matched by label.
      const byLabel = id === 'vector-function';
      if (byLabel) {
        for (const key of additions) expect(found.get(r.label(key)), key).toMatch(new RegExp(`${addition}$`));
        for (const key of course) expect(found.get(r.label(key)), key).toMatch(new RegExp(`${courses}$`));
      }
      const notes = [...found.values()];
      expect(notes.some((n) => n.endsWith(addition))).toBe(true);
      expect(notes.some((n) => n.endsWith(courses))).toBe(course.length > 0);
    }
  });
});
