// Property tests of the CPU the matmul labs' findings read the GPU against, over generated runs, in English and in
// Spanish (DESIGN §10, "Baselines"): GPU Lab's own BLAS is named as GPU Lab's, with the library the run used, never
// "the CPU"; where the course's CPU series ran too (NumPy in matmul, PyTorch on the CPU in matmul-breakeven), the
// speedups and the break-even are over the faster of the two, named as the fastest measured, with the other beside it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { formatBreakEven, formatTimes } from '../../../main/common/pure/format.ts';
import type { Locale } from '../../../main/common/pure/locale.ts';
import { validateParams } from '../../../main/common/params.ts';
import type { PeerLibrary, PeersReport } from '../../../main/common/peer-protocol.ts';
import type { PointResult, RunRecord } from '../../../main/common/run-record.ts';
import { breakEven, speedupCurve } from '../../../main/labs/analysis.ts';
import { findLab } from '../../../main/labs/index.ts';
import type { Lab, PlannedPoint } from '../../../main/labs/lab.ts';
import { findingText, localizeDescriptor } from '../../../main/labs/lab-text.ts';
import { inReportLocale } from '../../../main/reports/report-locale.ts';
import { measuredPoint, waivedPoint } from '../../../main/runs/point-result.ts';
import { CPU, GPU, WITH_GPU } from './synthetic.ts';

const LOCALES = ['en', 'es'] as const;
const LIBRARIES: PeerLibrary[] = ['numpy', 'torch', 'cupy', 'numba'];

// How the compute host names the BLAS a CPU GEMM ran on, in records old and new, and the library a reader is told.
const BLAS = [
  { implementation: 'OpenBLAS 0.3.26 NO_LAPACKE DYNAMIC_ARCH NO_AFFINITY Cooperlake MAX_THREADS=64 (libopenblas.so.0)', library: 'OpenBLAS 0.3.26' },
  { implementation: 'OpenBLAS 0.3.27 from NumPy’s wheel; 16 threads, the fastest of 3 libraries × thread counts (9 trials) at 1000×1000×1000, fp32', library: 'OpenBLAS 0.3.27' },
  { implementation: 'Intel MKL 2024.2 from PyTorch’s wheel; 8 threads, the fastest of 2 libraries × thread counts (6 trials) at 500×500×500, fp32', library: 'Intel MKL 2024.2' },
] as const;

// Whether the course's CPU series ran: measured, waived (its library missing), or not asked for (--peers none).
const STATES = ['ran', 'waived', 'noPeers'] as const;
type State = (typeof STATES)[number];

function lab(id: string): Lab {
  const l = findLab(id);
  if (!l) throw new Error(`no lab ${id}`);
  return l;
}

function report(missing: PeerLibrary | null): PeersReport {
  const libraries = Object.fromEntries(
    LIBRARIES.map((l) => [l, l === missing ? { found: false as const, kind: 'missing' as const, error: `No module named '${l}'`, reason: `not installed (No module named '${l}')` } : { found: true as const, version: '1.0', cudaAvailable: true, devices: ['GPU'] }]),
  );
  return { interpreter: 'python3', available: true, probe: { python: '3.12.3', executable: '/usr/bin/python3', libraries } };
}

// A planned point measured with these samples, as the runner records it, on this implementation.
function measured(p: PlannedPoint, samples: number[], implementation: string): PointResult {
  return measuredPoint(p, { clock: p.clock, hostMs: samples, deviceMs: samples, executionsPerSample: 1, implementation, threads: 16, verification: { method: 'full', checked: 1, total: 1, relativeError: 1e-7, tolerance: 1e-5, passed: true, mismatches: [] }, telemetry: null });
}

function runOf(id: string, params: Record<string, unknown>, state: State, library: PeerLibrary, ms: (p: PlannedPoint) => number, shape: number[], blas: string): RunRecord {
  const l = lab(id);
  const values = validateParams(id, l.descriptor.parameters, params);
  const peers = state === 'noPeers' ? undefined : { asked: LIBRARIES, report: report(state === 'waived' ? library : null) };
  const planned = l.plan(values, { ...WITH_GPU, ...(peers ? { peers } : {}) });
  const points = planned.map((p) => (p.measurement ? measured(p, shape.map((s) => s * ms(p)), p.series.startsWith('cpu') ? blas : 'python') : waivedPoint(p)));
  const analysis = l.analyze(points, values, GPU, CPU);
  return { lab: id, params: values, points, summary: analysis.summary, findings: analysis.findings } as unknown as RunRecord;
}

const text = (record: RunRecord, id: string, locale: Locale): string => {
  const f = record.findings.find((x) => x.id === id);
  return f ? findingText(f, locale) : '';
};
const median = (record: RunRecord, key: string, x: number | null = null): number => record.points.find((p) => p.series === key && (x === null || p.x === x))?.stats?.median ?? Number.NaN;

// A CPU series as the reader is told its name: GPU Lab's BLAS with its library, the course's by its label.
function cpuName(id: string, key: string, library: string, locale: Locale): string {
  if (key === 'cpu' || key === 'cpu-blas') return locale === 'en' ? `GPU Lab’s CPU BLAS (${library})` : `la BLAS de la CPU de GPU Lab (${library})`;
  return localizeDescriptor(lab(id).descriptor, locale).series.find((s) => s.key === key)?.label ?? key;
}
const fastestMark = (name: string, locale: Locale): string => (locale === 'en' ? `the fastest CPU series measured, ${name},` : `la serie de CPU más rápida medida, ${name},`);
// A speedup as a finding writes it: its value, and the range the two medians' intervals allow where that is wide.
const ranged = (ratio: string): string => `${ratio.replace(/[.()×]/g, (c) => `\\${c}`)}(?: \\([^)]*\\))?`;

const samples = fc.array(fc.double({ min: 0.97, max: 1.03, noNaN: true }), { minLength: 6, maxLength: 6 });
const factor = fc.double({ min: 0.2, max: 5, noNaN: true });
const blas = fc.constantFrom(...BLAS);

describe('matmul reads the GPU against the fastest CPU series measured, named, with GPU Lab’s BLAS named', () => {
  it('in the speedups and the CPU’s rate, in both languages', () => {
    fc.assert(
      fc.property(fc.constantFrom(...STATES), factor, factor, samples, blas, (s, numpy, gpu, shape, b) => {
        const ms = (p: PlannedPoint): number => ({ 'cpu-blas': 100, 'numpy-matmul': 100 * numpy, 'gpu-transfers': 30 * gpu, 'gpu-cublas': 5 * gpu })[p.series] ?? 10;
        const record = runOf('matmul', { n: 1000 }, s, 'numpy', ms, shape, b.implementation);
        const ran = s === 'ran';
        const fastest = ran && median(record, 'numpy-matmul') < median(record, 'cpu-blas') ? 'numpy-matmul' : 'cpu-blas';
        const other = fastest === 'cpu-blas' ? 'numpy-matmul' : 'cpu-blas';
        for (const locale of LOCALES) {
          const name = (key: string): string => cpuName('matmul', key, b.library, locale);
          expect(text(record, 'cpu-rate', locale)).toContain(name('cpu-blas'));
          for (const gpuKey of ['gpu-transfers', 'gpu-cublas']) {
            const said = text(record, `${gpuKey}-speedup`, locale);
            const ratio = (cpu: string): string => inReportLocale(locale, () => formatTimes(median(record, cpu) / median(record, gpuKey)));
            // The speedup over the fastest CPU first, over the other right after it, each CPU by its name.
            const over = ran ? fastestMark(name(fastest), locale) : name(fastest);
            const marked = said.replace(over, 'FASTEST').replace(name(other), 'OTHER');
            expect(marked, said).toMatch(new RegExp(`${ranged(ratio(fastest))} ${locale === 'en' ? 'the speed of' : 'la velocidad de'} FASTEST`));
            if (ran) expect(marked, said).toMatch(new RegExp(`FASTEST ${ranged(ratio(other))} ${locale === 'en' ? 'that of' : 'la de'} OTHER`));
            else expect(said).not.toContain(name('numpy-matmul'));
            expect(said).not.toMatch(/the CPU's speed|la velocidad de la CPU/);
          }
        }
      }),
      { numRuns: 120 },
    );
  });
});

describe('matmul-breakeven’s crossings are over the fastest CPU series measured, named, the other beside it', () => {
  const sizes = [100, 200, 500, 1000];
  it('in the break-evens, the speedup ranges and the CPU’s rate, in both languages', () => {
    fc.assert(
      fc.property(fc.constantFrom(...STATES), factor, fc.array(factor, { minLength: 4, maxLength: 4 }), samples, blas, (s, torchSpeed, gpuOverCpu, shape, b) => {
        // Both CPUs grow as N³, PyTorch's by its own factor; the GPU with the copies crosses where the factors say.
        const ms = (p: PlannedPoint): number => {
          const n = p.x ?? 100;
          const cpu = (n / 100) ** 3;
          const over = gpuOverCpu[sizes.indexOf(n)] ?? 1;
          return { cpu, 'torch-cpu': cpu / torchSpeed, 'gpu-transfers': cpu * over, 'torch-transfers': cpu * over, 'gpu-resident': cpu * 0.1, 'torch-resident': cpu * 0.1 }[p.series] ?? 1;
        };
        const record = runOf('matmul-breakeven', { sizes }, s, 'torch', ms, shape, b.implementation);
        const ran = s === 'ran';
        const logMean = (key: string): number => sizes.reduce((sum, n) => sum + Math.log(median(record, key, n)), 0) / sizes.length;
        const fastest = ran && logMean('torch-cpu') < logMean('cpu') ? 'torch-cpu' : 'cpu';
        const other = fastest === 'cpu' ? 'torch-cpu' : 'cpu';
        for (const locale of LOCALES) {
          const name = (key: string): string => cpuName('matmul-breakeven', key, b.library, locale);
          const n = (v: number): string => inReportLocale(locale, () => formatBreakEven('matrix-n', v));
          expect(text(record, 'cpu-rate', locale)).toContain(name('cpu'));
          for (const gpuKey of ['gpu-transfers', 'gpu-resident']) {
            const said = text(record, `${gpuKey}-break-even`, locale);
            const main = ran ? fastestMark(name(fastest), locale) : name(fastest);
            expect(said, said).toContain(main);
            // The crossing given first is that CPU's, as the lab's own interpolation puts it.
            const first = breakEven(speedupCurve(record.points, fastest, gpuKey), 1);
            const head = said.split(locale === 'en' ? ' Against ' : ' Frente a ')[0] ?? '';
            if (first.kind === 'between') expect(head, said).toContain(`N ${locale === 'en' ? '=' : '≈'} ${n(first.size)}`);
            // The other CPU beside it, after it, with its own crossing where there is one.
            if (ran) {
              const beside = said.slice(head.length);
              const second = breakEven(speedupCurve(record.points, other, gpuKey), 1);
              expect(beside, said).toContain(name(other));
              if (second.kind === 'between') expect(beside, said).toContain(`N ${locale === 'en' ? '=' : '≈'} ${n(second.size)}`);
            } else expect(said).not.toContain(name('torch-cpu'));
            // No CPU left unnamed: with the series' names taken out, no "the CPU" remains.
            expect(said.split(name('cpu')).join('').split(name('torch-cpu')).join('')).not.toMatch(/the CPU\b(?! series)|la CPU\b/);
            const range = text(record, `${gpuKey}-range`, locale);
            if (range) expect(range, range).toContain(main);
          }
        }
      }),
      { numRuns: 120 },
    );
  });
});
