// What a kernel run's verification says in the app, the CLI and the PDF, in English and Spanish, for generated
// verification outcomes: as this version records them, and as an earlier build stored them (read back through the
// run's schema, as the kernel store and the report read them). Whatever the counts, no sentence puts more elements
// wrong than checked, the elements never written are said whenever there are any, and no sentinel stands for an
// error measure.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { cliText } from '../../../main/cli/cli-text.ts';
import { kernelRunText } from '../../../main/cli/kernel-run-text.ts';
import { translator } from '../../../main/common/pure/i18n/index.ts';
import type { Locale } from '../../../main/common/pure/locale.ts';
import { KERNEL_RUN } from '../../../main/common/playground.ts';
import type { KernelRun } from '../../../main/common/playground.ts';
import { kernelStatusText, verificationRows } from '../../../main/reports/kernel-sections.ts';
import { verificationText } from '../../../renderer/components/playground/kernel-run-text.ts';

// A real record to put generated verifications in.
const recorded = JSON.parse(readFileSync(join(import.meta.dirname, '../../fixtures/kernel-runs/h100-sgemm-starter.json'), 'utf8')) as { result: object };

function runWith(verification: Record<string, unknown>): KernelRun {
  return KERNEL_RUN.parse({ ...recorded, status: verification.ok ? 'verified' : 'verification-failed', result: { ...recorded.result, verification } });
}

const CHECKS = ['every-element', 'total', 'sampled-gemm', 'gemm-crossings'] as const;
const FIELDS = { method: 'generated', tolerance: 'generated', relativeTolerance: 1e-5, samples: 4096 };

function mismatchesFor(wrong: boolean, unwritten: boolean): unknown[] {
  if (unwritten) return [{ index: 3, row: null, col: null, got: null, expected: 1.5, unwritten: true }];
  return wrong ? [{ index: 2, row: null, col: null, got: 0.5, expected: 1.5, unwritten: false }] : [];
}

// As this version records a verification: wrong ≤ checked ≤ total, never written ≤ total.
const current = fc
  .record({ total: fc.integer({ min: 1, max: 2 ** 28 }), check: fc.constantFrom(...CHECKS), error: fc.option(fc.double({ min: 0, max: 1e30, noNaN: true }), { nil: null }) })
  .chain((r) => fc.record({ checked: fc.integer({ min: 0, max: r.total }), neverWritten: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: r.total })) }).map((c) => ({ ...r, ...c })))
  .chain((r) => fc.oneof(fc.constant(0), fc.integer({ min: 0, max: r.checked })).map((wrong) => ({ ...r, wrong })))
  .map((r) => ({
    ...FIELDS,
    ok: r.wrong === 0 && r.neverWritten === 0,
    checked: r.checked,
    total: r.total,
    check: r.check,
    mismatchCount: r.wrong,
    neverWritten: r.neverWritten,
    mismatches: mismatchesFor(r.wrong > 0, r.neverWritten > 0),
    maxRelativeError: r.error,
  }));

// As an earlier build stored one: its count of mismatches may pass the elements checked (SGEMM's added every
// element found unwritten), and an element never written left the largest double as the largest error.
const older = fc
  .record({ total: fc.integer({ min: 1, max: 2 ** 28 }), check: fc.constantFrom(...CHECKS), sentinel: fc.boolean(), error: fc.double({ min: 0, max: 1e30, noNaN: true }) })
  .chain((r) => fc.record({ checked: fc.integer({ min: 0, max: r.total }), count: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: r.total })) }).map((c) => ({ ...r, ...c })))
  .map((r) => ({
    ...FIELDS,
    ok: r.count === 0,
    checked: r.checked,
    total: r.total,
    check: r.check,
    mismatchCount: r.count,
    mismatches: r.count === 0 ? [] : [{ index: 3, row: null, col: null, got: r.sentinel ? null : 0.5, expected: 1.5 }],
    maxRelativeError: r.sentinel && r.count > 0 ? Number.MAX_VALUE : r.error,
  }));

// Every sentence each reader writes about the verification, in one language.
function said(run: KernelRun, locale: Locale): string[] {
  const v = run.result?.verification;
  if (!v) throw new Error('generated without a verification');
  const t = translator(locale);
  const cli = kernelRunText(run, { locale, t: cliText(locale) });
  const app = verificationText(v, t);
  const pdf = verificationRows(v, t).map(([name, value]) => `${name}: ${value}`);
  return [...cli.out.split('\n'), ...cli.failures, ...app.verdict, app.maxError, ...pdf, kernelStatusText(run, t)];
}

// "3 of the 4096 elements checked", "3 (3 k) of 4096 (4.1 k)" in the PDF's rows: each wrong count beside its checked.
const WRONG_OF_CHECKED: Record<Locale, RegExp[]> = {
  en: [/(\d+) of (?:the )?(\d+) elements checked/g, /Wrong, of those checked: (\d+)(?: \([^)]*\))? of (\d+)/g],
  es: [/(\d+) de los (\d+) elementos comprobados/g, /Incorrectos, de los comprobados: (\d+)(?: \([^)]*\))? de (\d+)/g],
};
const UNWRITTEN = { en: (n: number, total: number) => `${n} of the ${total} elements of the output`, es: (n: number, total: number) => `${n} de los ${total} elementos de la salida` };
// The largest double (1.8e308 however it is written), an infinity, a number written as NaN.
const SENTINEL = /e\+?308|1[.,]79\d*e|Infinity|∞|error rel\. máx\. NaN|max\. rel\. error NaN|relativo NaN|relative error NaN/;

function wrongPairs(lines: readonly string[], locale: Locale): [number, number][] {
  return WRONG_OF_CHECKED[locale].flatMap((re) => lines.flatMap((l) => [...l.matchAll(re)].map((m): [number, number] => [Number(m[1]), Number(m[2])])));
}

describe('the sentences of a verification', () => {
  it.each(['en', 'es'] as const)('never say more wrong than checked, say every element never written, and print no sentinel (%s)', (locale) => {
    fc.assert(
      fc.property(fc.oneof(current, older), (verification) => {
        const run = runWith(verification);
        const lines = said(run, locale);
        for (const [wrong, checked] of wrongPairs(lines, locale)) expect(wrong, lines.join('\n')).toBeLessThanOrEqual(checked);
        expect(lines.join('\n')).not.toMatch(SENTINEL);
        const v = run.result?.verification;
        if (v?.neverWritten) expect(lines.join('\n')).toContain(UNWRITTEN[locale](v.neverWritten, v.total));
      }),
    );
  });

  it('reads the count of issue 24 as an earlier build stored it without saying 16542648 of 12285 checked', () => {
    const run = runWith({ ...FIELDS, ok: false, checked: 12285, total: 4096 * 4096, check: 'sampled-gemm', mismatchCount: 16542648, mismatches: [], maxRelativeError: Number.MAX_VALUE });
    for (const locale of ['en', 'es'] as const) {
      const lines = said(run, locale);
      expect(wrongPairs(lines, locale)).toEqual([]);
      expect(lines.join('\n')).toContain('16542648');
      expect(lines.join('\n')).not.toMatch(SENTINEL);
    }
  });
});
