// The sentence comparing a kernel launched from Python with GPU Lab's own launch of it (common/pure/python-launch.ts), on
// generated launches: it says faster or slower only where the two medians' 95 % intervals separate, gives the ratio
// the medians give with the range the intervals allow, and reads in English and Spanish with every value filled in.
// It is said nowhere its figures are missing or the Python launch's output was wrong.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { translator } from '../../../main/common/pure/i18n/index.ts';
import { renderMessage } from '../../../main/common/pure/message.ts';
import type { FormattedNumber } from '../../../main/common/pure/message.ts';
import type { Comparison, KernelRunResult } from '../../../main/common/playground.ts';
import { pythonLaunchFinding } from '../../../main/common/pure/python-launch.ts';
import { medianInterval, summarize } from '../../../main/common/pure/statistics.ts';
import { saxpyResult, throughput } from '../renderer/playground/synthetic-kernel-run.ts';
import { kernelRunText } from '../../../main/cli/kernel-run-text.ts';
import { cliText } from '../../../main/cli/cli-text.ts';
import type { KernelRun } from '../../../main/common/playground.ts';

const launches = (scale: number) => fc.array(fc.double({ min: 0.9, max: 1.3, noNaN: true }), { minLength: 6, maxLength: 40 }).map((xs) => xs.map((x) => x * scale));

function run(nvrtc: number[], python: number[], library: 'python-pycuda' | 'python-cuda-core', verified = true): KernelRunResult {
  const base = saxpyResult();
  const mine = { ...throughput(1, null), samplesMs: nvrtc, medianMs: summarize(nvrtc).median };
  const theirs: Comparison = { id: library, kind: 'python', title: library, throughput: { ...throughput(1, null), samplesMs: python, medianMs: summarize(python).median }, verified, error: null };
  return { ...base, throughput: mine, comparisons: [...base.comparisons, theirs] };
}

const num = (v: unknown): number => (v as FormattedNumber).num;

describe('what a run says of its kernel launched from Python', () => {
  it('faster or slower only where the intervals separate, with the ratio and its range; in both languages', () => {
    fc.assert(
      fc.property(launches(1), fc.double({ min: 0.3, max: 3, noNaN: true }), fc.constantFrom('python-pycuda' as const, 'python-cuda-core' as const), (nvrtc, scale, library) => {
        const python = nvrtc.map((x, i) => x * scale * (1 + ((i % 3) - 1) * 0.01));
        const m = pythonLaunchFinding(run(nvrtc, python, library));
        expect(m).not.toBeNull();
        if (!m) return;
        const a = medianInterval(python);
        const b = medianInterval(nvrtc);
        if (!a || !b) throw new Error('six samples or more have an interval');
        const expected = a.high < b.low ? 'faster' : a.low > b.high ? 'slower' : 'same';
        expect(m.key).toBe(`playground.python.finding.${expected}`);
        const values = m.values ?? {};
        expect(num(values.python)).toBe(summarize(python).median);
        expect(num(values.nvrtc)).toBe(summarize(nvrtc).median);
        if (expected !== 'same') {
          // "n× faster" or "n× slower": the ratio is at least 1, and its range holds it.
          expect(num(values.ratio)).toBeGreaterThanOrEqual(1);
          expect(num(values.low)).toBeLessThanOrEqual(num(values.ratio) * (1 + 1e-12));
          expect(num(values.high)).toBeGreaterThanOrEqual(num(values.ratio) * (1 - 1e-12));
          expect(num(values.low)).toBeGreaterThan(1);
        } else {
          expect(num(values.low)).toBeLessThanOrEqual(1);
          expect(num(values.high)).toBeGreaterThanOrEqual(1);
        }
        for (const locale of ['en', 'es'] as const) {
          const text = renderMessage(m, translator(locale), locale);
          expect(text).not.toMatch(/[{}]/);
          expect(text).toContain(library === 'python-pycuda' ? 'PyCUDA' : 'cuda.core');
        }
      }),
      { numRuns: 300, seed: 47 },
    );
  });

  it('nothing where the Python launch was wrong, not timed, or absent', () => {
    const nvrtc = [1, 1.1, 0.9, 1, 1.05, 0.95];
    expect(pythonLaunchFinding(run(nvrtc, nvrtc, 'python-pycuda', false))).toBeNull();
    const untimed = run(nvrtc, nvrtc, 'python-cuda-core');
    expect(pythonLaunchFinding({ ...untimed, comparisons: untimed.comparisons.map((c) => ({ ...c, throughput: null })) })).toBeNull();
    expect(pythonLaunchFinding(saxpyResult())).toBeNull();
    expect(pythonLaunchFinding({ ...untimed, throughput: null })).toBeNull();
  });

  it('the same launches are indistinguishable; clearly apart they are not', () => {
    const nvrtc = [1, 1.01, 0.99, 1, 1.02, 0.98, 1, 1.01];
    expect(pythonLaunchFinding(run(nvrtc, nvrtc, 'python-cuda-core'))?.key).toBe('playground.python.finding.same');
    expect(pythonLaunchFinding(run(nvrtc, nvrtc.map((x) => x * 2), 'python-cuda-core'))?.key).toBe('playground.python.finding.slower');
    expect(pythonLaunchFinding(run(nvrtc, nvrtc.map((x) => x / 2), 'python-cuda-core'))?.key).toBe('playground.python.finding.faster');
  });
});

describe('gpu-lab kernel run says it', () => {
  it('under the table, in the reader’s language, with the Python launch as a row of its own', () => {
    const nvrtc = [1, 1.01, 0.99, 1, 1.02, 0.98, 1, 1.01];
    const result = run(nvrtc, nvrtc.map((x) => x * 1.5), 'python-cuda-core');
    const stored: KernelRun = { id: 'k1', exercise: 'saxpy', createdAt: '2026-12-01T10:00:00Z', source: 'x', request: { exercise: 'saxpy', source: 'x' }, status: 'verified', result, error: null };
    const es = kernelRunText(stored, { locale: 'es', t: cliText('es') }, 'mine.cu').out;
    expect(es).toContain('Tu kernel desde Python (cuda.core)');
    expect(es).toMatch(/Lanzado desde Python con cuda\.core, tu kernel tardó 1,5 ms frente a 1 ms .*: 1,50× más lento/);
    const en = kernelRunText(stored, { locale: 'en', t: cliText('en') }, 'mine.cu').out;
    expect(en).toMatch(/Launched from Python through cuda\.core, your kernel took 1\.5 ms against 1 ms .*: 1\.50× slower/);
  });
});
