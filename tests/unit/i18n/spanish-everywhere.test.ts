// A Spanish reader meets no English word from the engine: every point of every lab is named in Spanish, every finding
// a lab gives (on a GPU machine and on a CPU-only one) reads in Spanish, every reason a point is waived or cancelled,
// and every error code. The same texts in English are the engine's own words. What may stay as it is: numbers, units,
// product and type names, error codes, and what the CUDA driver or the build said (quoted as {detail}).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { blasText, blasWhat } from '../../../main/host/blas-host.ts';
import type { BlasPick } from '../../../main/host/blas-choice.ts';
import type { OpenedBlas } from '../../../main/host/blas-libraries.ts';
import { renderMessage } from '../../../main/common/pure/message.ts';

import { ERROR_CODES, type ErrorPayload } from '../../../main/common/errors.ts';
import { errorText, pointReason } from '../../../main/common/pure/i18n/error-text.ts';
import { translator } from '../../../main/common/pure/i18n/index.ts';
import type { Locale } from '../../../main/common/pure/locale.ts';
import type { PointResult } from '../../../main/common/run-record.ts';
import { validateParams } from '../../../main/common/params.ts';
import { LABS } from '../../../main/labs/index.ts';
import { findingText, pointText } from '../../../main/labs/lab-text.ts';
import type { Lab, PlanContext } from '../../../main/labs/lab.ts';
import { cancelledPoint, waivedPoint } from '../../../main/runs/point-result.ts';
import { planContext } from '../../../main/runs/lab-runner.ts';
import { runFindings } from '../../../main/runs/run-findings.ts';
import { CPU, CPU_ONLY, GPU, WITH_GPU, pointFromPlan } from '../labs/synthetic.ts';

// Words only English uses (none of them is Spanish, nor a name the labs quote): a Spanish text holding one has
// English in it.
const ENGLISH = new Set([
  'the', 'and', 'of', 'with', 'is', 'are', 'was', 'were', 'from', 'for', 'than', 'this', 'that', 'its', 'which', 'first', 'call', 'warmed',
  'cold', 'thread', 'threads', 'element', 'elements', 'transfers', 'resident', 'point', 'points', 'failed', 'device', 'stopped', 'clock',
  'launch', 'found', 'without', 'run', 'cancelled', 'before', 'machine', 'only', 'copies', 'faster', 'slower', 'time', 'memory', 'result',
  'could', 'not', 'has', 'have', 'an', 'it', 'at', 'to', 'by', 'on', 'or', 'each', 'every', 'all', 'one', 'two', 'per', 'into', 'out',
]);

function englishWords(text: string): string[] {
  return [...new Set(text.toLowerCase().match(/[a-záéíóúüñ]+/g) ?? [])].filter((w) => ENGLISH.has(w));
}

const labsOf = (): readonly Lab[] => LABS;
const defaults = (lab: Lab) => validateParams(lab.descriptor.id, lab.descriptor.parameters, {});
const contexts: [string, PlanContext][] = [['with a GPU', WITH_GPU], ['on the CPU only', CPU_ONLY]];

describe('every point, finding and reason of every lab in Spanish', () => {
  describe.each(labsOf().map((lab) => [lab.descriptor.id, lab] as const))('%s', (_id, lab) => {
    it.each(contexts)('names each point in Spanish, %s, and in English as the record labels it', (_where, ctx) => {
      for (const planned of lab.plan(defaults(lab), ctx)) {
        const point = planned.measurement ? pointFromPlan(planned, 1) : waivedPoint(planned);
        expect(pointText(point, 'en', lab.descriptor), planned.key).toBe(planned.label);
        const es = pointText(point, 'es', lab.descriptor);
        expect(englishWords(es), `${planned.key}: ${es}`).toEqual([]);
      }
    });

    it.each(contexts)('gives every finding in Spanish, %s', (_where, ctx) => {
      const planned = lab.plan(defaults(lab), ctx);
      // Each point a different time, so that every comparison has something to say.
      const points = planned.map((p, i) => (p.measurement ? pointFromPlan(p, 0.5 + i * 0.37) : waivedPoint(p)));
      const findings = [...lab.analyze(points, defaults(lab), ctx.gpu, CPU).findings, ...runFindings(points, 0.2, lab.descriptor)];
      expect(findings.length).toBeGreaterThan(0);
      for (const f of findings) {
        const es = findingText(f, 'es');
        expect(es, f.id).not.toBe(findingText(f, 'en'));
        // The build's own words are quoted as it said them.
        expect(englishWords(es.replace('nvcc was not found', '')), `${f.id}: ${es}`).toEqual([]);
      }
    });
  });
});

describe('why a point has no time, in Spanish', () => {
  const planned = LABS[0]?.plan(defaults(LABS[0] as Lab), WITH_GPU).find((p) => p.measurement);
  if (!planned) throw new Error('no planned point');
  const t = (locale: Locale) => translator(locale);
  const inventory = (devices: (typeof CPU | typeof GPU)[], cudaReason: string | null) => ({
    devices: { devices, cudaReason, blas: 'OpenBLAS' },
    versions: {},
    hostPid: 1,
  });
  const waivedBy = (ctx: PlanContext): PointResult => waivedPoint({ ...planned, measurement: null, waived: ctx.gpuWaivedReason, waivedWhy: ctx.gpuWaivedWhy });
  const cases: [string, PointResult][] = [
    ['no NVIDIA driver', waivedBy(planContext(inventory([CPU], 'no CUDA device: no NVIDIA driver is installed (libcuda.so.1 was not found)') as never, 'cuda:0'))],
    ['the driver found no device', waivedBy(planContext(inventory([CPU], 'no CUDA device: the driver found none') as never, 'cuda:0'))],
    ['the runtime answered an error', waivedBy(planContext(inventory([CPU], 'no CUDA device: cudaErrorInsufficientDriver (CUDA driver version is insufficient for CUDA runtime version)') as never, 'cuda:0'))],
    ['built without nvcc', waivedBy(planContext(inventory([CPU], 'built without CUDA: nvcc was not found') as never, 'cuda:0'))],
    ['something else the driver said', waivedBy(planContext(inventory([CPU], 'cuInit: CUDA_ERROR_NO_DEVICE') as never, 'cuda:0'))],
    ['the run asked for the CPU only', waivedBy(planContext(inventory([CPU, GPU], null) as never, 'cpu'))],
    ['a device the machine does not have', waivedBy(planContext(inventory([CPU, GPU], null) as never, 'cuda:3'))],
    ['the run was cancelled', cancelledPoint(planned)],
    ['the run failed before it', cancelledPoint(planned, { code: 'COMPUTE_HOST_CRASHED', message: 'killed by signal SIGKILL' })],
  ];

  it.each(cases)('%s: the English the record keeps, and Spanish', (_why, point) => {
    expect(pointReason(point, t('en'), 'en')).toBe(point.reason);
    const es = pointReason(point, t('es'), 'es');
    expect(es).not.toBe(point.reason);
    expect(englishWords(es.replace('cuInit: CUDA_ERROR_NO_DEVICE', '')), es).toEqual([]);
  });
});

describe('every error code in Spanish', () => {
  it.each([...ERROR_CODES])('%s', (code) => {
    const e: ErrorPayload = { code, message: 'The engine said this in English.' };
    expect(errorText(e, translator('en'), 'en')).toBe(e.message);
    const es = errorText(e, translator('es'), 'es');
    expect(es).not.toBe(`errors.${code}`);
    expect(englishWords(es), es).toEqual([]);
    expect(es.length).toBeGreaterThan(5);
  });

  it('names what the error is about in Spanish by the identifiers its details carry, not by the English message', () => {
    const e: ErrorPayload = { code: 'NOT_FOUND', message: 'No run "abc" in /data/runs', details: { runId: 'abc' } };
    expect(errorText(e, translator('es'), 'es')).toBe('No se encontró. (ejecución abc)');
    expect(errorText(e, translator('en'), 'en')).toBe('No run "abc" in /data/runs');
    const p: ErrorPayload = { code: 'INVALID_ARGUMENT', message: 'Argument "runId" of runs.getRun = 7 is not allowed', details: { method: 'runs.getRun', argument: 'runId' } };
    expect(errorText(p, translator('es'), 'es')).toBe('Se rechazó un argumento. (argumento runId; petición runs.getRun)');
  });

  it('words a failed point by its error, in either language', () => {
    const planned = LABS[0]?.plan(defaults(LABS[0] as Lab), WITH_GPU)[0];
    if (!planned) throw new Error('no planned point');
    const point: PointResult = { ...pointFromPlan(planned, 1), status: 'failed', error: { code: 'CUDA_ERROR_OUT_OF_MEMORY', message: 'out of memory' }, reason: 'out of memory' };
    expect(pointReason(point, translator('en'), 'en')).toBe('out of memory');
    expect(pointReason(point, translator('es'), 'es')).toBe('La GPU se quedó sin memoria.');
  });
});

// The devices page's and `gpu-lab devices`' line on the CPU's GEMM library (main/host/blas-host.ts): generated picks
// from every place a library is found, with and without other libraries found, read in Spanish with no English word
// but the library's own name and its path; in English, word for word the host's line (blasText).
describe('the CPU GEMM library’s line in Spanish', () => {
  const ORIGINS = ['numpy', 'scipy', 'scipy-openblas', 'torch', 'mkl', 'conda', 'named', 'system'] as const;
  const library = (id: number, origin: (typeof ORIGINS)[number], name: string): OpenedBlas => ({
    id, available: true, name, library: `/x/lib${id}.so`, path: `/x/lib${id}.so`, origin, reason: null, family: 'OpenBLAS', version: '0.3.26', config: null, kernel: null, symbol: null, ilp64: false, threadsSettable: true, defaultThreads: 4,
  });
  it('reads every place and count of libraries in Spanish, and in English as the host wrote it', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...ORIGINS), { minLength: 1, maxLength: 4 }), fc.integer({ min: 1, max: 256 }), fc.constantFrom('fp32' as const, 'fp64' as const), fc.integer({ min: 1, max: 12 }), (origins, threads, dtype, trials) => {
        const libraries = origins.map((o, i) => library(i, o, i % 2 ? 'MKL 2024.2' : 'OpenBLAS 0.3.26 (SkylakeX kernel)'));
        const [first] = libraries;
        if (!first) return;
        const pick: BlasPick = { library: first, threads, dtype, size: 1000, shape: { m: 1000, n: 1000, k: 1000 }, trials: Array.from({ length: trials }, () => ({ library: 'x', threads, medianMs: 1, samples: 6 })) };
        const what = blasWhat(pick, { libraries }, '');
        expect(what).not.toBeNull();
        if (!what) return;
        const en = renderMessage(what, translator('en'), 'en');
        expect(blasText(pick, { libraries }, '')).toBe(en);
        expect(en).toContain(`${first.name ?? ''} from `);
        expect(en).toContain(`on ${threads} threads for ${dtype} at N = 1,000, the fastest of ${trials} trials`);
        expect(en.includes('also found: ')).toBe(libraries.length > 1);
        for (const lib of libraries) expect(en).toContain(lib.path);
        const es = renderMessage(what, translator('es'), 'es');
        expect(englishWords(es.replace(/\/x\/lib\d+\.so/g, '').replace(/\(SkylakeX kernel\)/g, '')), es).toEqual([]);
        for (const lib of libraries) expect(es).toContain(lib.path);
      }),
    );
  });

  it('says in Spanish that the built-in GEMM stands in, quoting why from the loader', () => {
    const what = blasWhat(null, { libraries: [] }, 'built-in blocked GEMM (no system BLAS: libopenblas.so.0: cannot open shared object file)');
    expect(what).not.toBeNull();
    if (!what) return;
    expect(renderMessage(what, translator('es'), 'es')).toBe('el GEMM por bloques propio (no hay BLAS del sistema: libopenblas.so.0: cannot open shared object file)');
  });
});
