// Property tests of the CPU series elementwise-breakeven reads each operation's GPU against (DESIGN §10, "Baselines"),
// over generated runs, in English and in Spanish: the faster of GPU Lab's CPU code and the course's PyTorch on the CPU
// for that operation (the smaller geometric mean of their median times over the sizes both measured), named, in the
// lab's break-even findings (at the target speedup) and in the deliverable's answer to "from which size does the GPU
// win" (at 1×), each break-even the one computed against that series, the other CPU beside it after it; where the
// course's PyTorch gave no figure, GPU Lab's alone, and the answer says why.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { formatBreakEven, formatCount, formatTimes } from '../../../main/common/pure/format.ts';
import type { Locale } from '../../../main/common/pure/locale.ts';
import type { RunRecord } from '../../../main/common/run-record.ts';
import { speedupRange } from '../../../main/common/pure/claims.ts';
import { breakEven, speedupCurve } from '../../../main/labs/analysis.ts';
import type { PlannedPoint } from '../../../main/labs/lab.ts';
import { findingText, localizeDescriptor } from '../../../main/labs/lab-text.ts';
import { labDeliverable } from '../../../main/reports/deliverables/index.ts';
import { reportTranslate } from '../../../main/reports/report-context.ts';
import { inReportLocale } from '../../../main/reports/report-locale.ts';
import { expectedWhy, lab, median, point, runOf, type State } from './peer-runs.ts';

const LAB = 'elementwise-breakeven';
const OPS = ['add', 'mul', 'exp'] as const;
const SIZES = [1e2, 1e3, 1e4, 1e5, 1e6];
const PARAMS = { ops: [...OPS], minExponent: 2, maxExponent: 6, pointsPerDecade: 1 };
const LOCALES = ['en', 'es'] as const;
// The CPU series the findings name, as a reader is told them.
const FINDING_NAMES: Record<Locale, Record<'cpu' | 'torch-cpu', string>> = {
  en: { cpu: 'GPU Lab’s CPU code', 'torch-cpu': 'PyTorch on the CPU' },
  es: { cpu: 'la versión de GPU Lab en la CPU', 'torch-cpu': 'PyTorch en la CPU' },
};
const fastestMark = (name: string, locale: Locale): string => (locale === 'en' ? `the fastest CPU series measured, ${name},` : `la serie de CPU más rápida medida, ${name},`);
const besideWord = (locale: Locale): string => (locale === 'en' ? ' Against ' : ' Frente a ');

// Per operation: PyTorch's CPU time over GPU Lab's at each size, and how slow the GPU's two paths are, so that either
// CPU can be the faster one and each path can cross either CPU anywhere, or not at all, within the sizes.
const opShape = fc.record({
  torch: fc.array(fc.double({ min: 0.2, max: 5, noNaN: true }), { minLength: SIZES.length, maxLength: SIZES.length }),
  resident: fc.double({ min: 0.02, max: 50, noNaN: true }),
  copies: fc.double({ min: 0.02, max: 5, noNaN: true }),
});
const shapes = fc.record({ add: opShape, mul: opShape, exp: opShape });
const samples = fc.array(fc.double({ min: 0.9, max: 1.1, noNaN: true }), { minLength: 6, maxLength: 6 });
const states = fc.constantFrom<State>('ran', 'waived', 'failed', 'noPeers');

type Shapes = Record<(typeof OPS)[number], { torch: number[]; resident: number; copies: number }>;

function record(s: State, shape: Shapes, spread: number[]): RunRecord {
  const ms = (p: PlannedPoint): number => {
    const op = OPS.find((o) => p.series.startsWith(`${o}-`)) ?? 'add';
    const kind = p.series.slice(op.length + 1);
    const n = p.x ?? 1;
    const { torch, resident, copies } = shape[op];
    const cpu = 0.002 + n * 1e-6;
    if (kind === 'cpu') return cpu;
    if (kind === 'torch-cpu') return cpu * (torch[SIZES.indexOf(n)] ?? 1);
    if (kind.endsWith('resident')) return (0.01 + n * 1e-8) * resident;
    return (0.03 + n * 1e-6) * copies;
  };
  return runOf(LAB, PARAMS, s, 'torch', OPS.map((op) => `${op}-torch-cpu`), ms, spread);
}

// The faster CPU series of `op`: the smaller geometric mean of the median times over the sizes both measured.
function fastestOf(r: RunRecord, op: string): { fastest: string; other: string | null; ratio: number | null } {
  const measured = [`${op}-cpu`, `${op}-torch-cpu`].filter((key) => SIZES.every((n) => Number.isFinite(median(point(r, key, n)))));
  const logMean = (key: string): number => SIZES.reduce((sum, n) => sum + Math.log(median(point(r, key, n))), 0) / SIZES.length;
  const [first = `${op}-cpu`, second] = [...measured].sort((a, b) => logMean(a) - logMean(b));
  return { fastest: first, other: second ?? null, ratio: second ? Math.exp(logMean(first) - logMean(second)) : null };
}

// Where `gpu` becomes `target` times as fast as `cpu`, as a sentence of either kind writes it: an interpolated size with
// the range the medians' intervals allow (the crossings of the least and the most favourable speedups) where its ends
// differ at the two digits given.
function crossingSaid(r: RunRecord, cpu: string, gpu: string, target: number, locale: Locale): string | null {
  const b = breakEven(speedupCurve(r.points, cpu, gpu), target);
  const bounds = speedupRange(r.points, cpu, gpu);
  const [low, high] = [breakEven(bounds.high, target), breakEven(bounds.low, target)];
  return inReportLocale(locale, () => {
    if (b.kind === 'between') {
      const about = locale === 'en' ? `from about ${formatBreakEven('elements', b.size)} elements` : `a partir de unos ${formatBreakEven('elements', b.size)} elementos`;
      if (low.kind !== 'between' || high.kind !== 'between') return about;
      const [l, h] = [formatBreakEven('elements', low.size), formatBreakEven('elements', high.size)];
      return l === h ? about : `${about} (${locale === 'en' ? `somewhere between ${l} and ${h}` : `en algún punto entre ${l} y ${h}`}`;
    }
    if (b.kind === 'below-range') return `${formatCount(b.size)} ${locale === 'en' ? 'elements' : 'elementos'}`;
    if (b.kind === 'never') return `${locale === 'en' ? 'best' : 'como mucho'} ${formatTimes(b.best)}`;
    return null;
  });
}

describe('elementwise-breakeven reads each operation’s GPU against the fastest CPU series measured for it, named', () => {
  it('in the break-even findings: named, at the break-even computed against it, the other CPU beside it', () => {
    fc.assert(
      fc.property(states, shapes, samples, (s, shape, spread) => {
        const r = record(s, shape, spread);
        for (const op of OPS) {
          const { fastest, other } = fastestOf(r, op);
          const kind = (key: string): 'cpu' | 'torch-cpu' => (key.endsWith('torch-cpu') ? 'torch-cpu' : 'cpu');
          for (const path of ['gpu-transfers', 'gpu-resident']) {
            const gpu = `${op}-${path}`;
            const f = r.findings.find((x) => x.id === `${gpu}-break-even`);
            if (!f) throw new Error(`no ${gpu} break-even`);
            const b = breakEven(speedupCurve(r.points, fastest, gpu), 2);
            // The figure a finding carries is the crossing against that CPU.
            if (b.kind === 'between') expect(f.value ?? Number.NaN).toBeCloseTo(b.size, 6);
            else expect(f.value).toBeNull();
            for (const locale of LOCALES) {
              const said = findingText(f, locale);
              const names = FINDING_NAMES[locale];
              const [head = '', beside = ''] = said.split(besideWord(locale));
              const main = other ? fastestMark(names[kind(fastest)], locale) : names[kind(fastest)];
              expect(head, said).toContain(main);
              const crossing = crossingSaid(r, fastest, gpu, 2, locale);
              if (crossing) expect(head, said).toContain(crossing);
              if (other) {
                expect(head, said).not.toContain(names[kind(other)]);
                expect(beside, said).toContain(names[kind(other)]);
                const theirs = crossingSaid(r, other, gpu, 2, locale);
                if (theirs) expect(beside, said).toContain(theirs);
              } else expect(said, said).not.toContain(names['torch-cpu']);
            }
          }
        }
      }),
      { numRuns: 60 },
    );
  });

  it('in the deliverable’s answer of where the GPU wins, with why the course’s CPU was not measured where it was not', () => {
    fc.assert(
      fc.property(states, shapes, samples, (s, shape, spread) => {
        const r = record(s, shape, spread);
        for (const locale of LOCALES) {
          const descriptor = localizeDescriptor(lab(LAB).descriptor, locale);
          const t = reportTranslate(locale);
          const d = inReportLocale(locale, () => labDeliverable({ record: r, lab: descriptor, t }));
          const answer = d?.answers[0]?.answer ?? '';
          const notes = d?.tables[0]?.notes ?? [];
          const label = (key: string): string => descriptor.series.find((x) => x.key === key)?.label ?? key;
          const name = (key: string): string => t(key.endsWith('torch-cpu') ? 'pdf.deliverable.against.courseName' : 'pdf.deliverable.against.ownName', { name: label(key) });
          OPS.forEach((op, i) => {
            const { fastest, other, ratio } = fastestOf(r, op);
            const next = OPS[i + 1];
            const part = answer.slice(answer.indexOf(`${op}: `), next ? answer.indexOf(`${next}: `) : undefined);
            const [head = '', beside = ''] = part.split(`.${besideWord(locale)}`);
            const lead = t(`pdf.deliverable.elementwise.a.${other ? 'opFastest' : 'opOnly'}`, { op, cpu: name(fastest), paths: '\u0001' }).split('\u0001')[0] ?? '';
            expect(head.startsWith(lead), answer).toBe(true);
            for (const path of ['gpu-transfers', 'gpu-resident']) {
              const crossing = crossingSaid(r, fastest, `${op}-${path}`, 1, locale);
              if (crossing) expect(head, answer).toContain(crossing);
              const theirs = other && crossingSaid(r, other, `${op}-${path}`, 1, locale);
              if (theirs) expect(beside, answer).toContain(theirs);
            }
            if (other && ratio !== null) {
              expect(head, answer).not.toContain(name(other));
              expect(beside, answer).toContain(name(other));
              const item = inReportLocale(locale, () => t('pdf.deliverable.elementwise.fastestItem', { op, cpu: name(fastest), other: name(other), ratio: formatTimes(ratio) }));
              expect(notes.join('\n'), notes.join('\n')).toContain(item);
            } else {
              expect(answer).not.toContain(name(`${op}-torch-cpu`));
              expect(answer).toContain(expectedWhy(r, s, 'torch', `${op}-torch-cpu`, t, locale));
            }
          });
        }
      }),
      { numRuns: 60 },
    );
  });
});
