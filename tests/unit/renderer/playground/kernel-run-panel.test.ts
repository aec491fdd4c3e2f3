// A kernel run's result as the student reads it: a verified run with its occupancy, its rate and every comparison
// (one without a figure says why); a wrong result with the first bad elements where they sit, an element never
// written called so; a kernel stopped by the watchdog, with the compute host's restart said in words; and how the
// output was checked, in Spanish from the verification's data rather than the English words the run stored.
import { mount } from '@vue/test-utils';
import { createPinia } from 'pinia';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { setNumberLocale } from '../../../../main/common/pure/locale.ts';
import type { ExerciseDescriptor, KernelRun, KernelRunResult } from '../../../../main/common/playground.ts';
import { CATALOGS } from '../../../../main/common/pure/i18n/index.ts';
import KernelRunPanel from '../../../../renderer/components/playground/KernelRunPanel.vue';
import { i18n } from '../../../../renderer/i18n/index.ts';
import { kernelRun, reductionFromL2Result, saxpyExercise, saxpyResult } from './synthetic-kernel-run.ts';

// Chart.js is replaced at its module boundary: the chart's configuration is tested as a function elsewhere.
vi.mock('../../../../renderer/components/charts/chart-setup.ts', () => ({ drawChart: () => ({ type: 'bar', update: () => true, destroy: () => undefined }) }));

// The exercise as main describes it in the language shown: its reference kernel and cuBLAS titled from the catalog.
function saxpy(locale: 'en' | 'es' = 'en'): ExerciseDescriptor {
  const words = CATALOGS[locale].exercises.saxpy;
  const referenceTitle = words.kernels['grid-stride-float4']?.title;
  const cublasTitle = words.builtins.cublas;
  if (!referenceTitle || !cublasTitle) throw new Error('no saxpy kernels in the catalog');
  const reference = { id: 'grid-stride-float4', kind: 'reference' as const, title: referenceTitle, file: '', text: '', entry: 'saxpy', launch: { grid: [1, 1, 1] as [number, number, number], block: [256, 1, 1] as [number, number, number] } };
  return { ...saxpyExercise, kernels: [reference] as ExerciseDescriptor['kernels'], builtins: [{ id: 'cublas', kind: 'cublas', title: cublasTitle }] };
}

function mountPanel(run: KernelRun, exercise = saxpy()) {
  return mount(KernelRunPanel, { props: { run, exercise }, global: { plugins: [createPinia(), i18n], stubs: { RouterLink: true } } });
}

// A wrong 1024 × 1024 product, checked as SGEMM's is: the last row, the last column and 1024 random elements against
// dot products, to an fp32 sum of 1024 terms (8·√1024·2⁻²⁴ = 2⁻¹⁶ of the RMS). Its first wrong elements: one never
// written outside those checked, one checked and wrong; 31 of those checked are wrong.
function wrongProduct(): KernelRunResult {
  return saxpyResult({
    throughput: null,
    comparisons: [],
    verification: {
      ok: false,
      checked: 3071,
      total: 1024 * 1024,
      method: '3071 elements against float64 dot products (the last row, the last column, 1024 at random); every element for having been written',
      tolerance: '1.53e-5 × RMS',
      check: 'sampled-gemm',
      relativeTolerance: 2 ** -16,
      samples: 1024,
      mismatchCount: 31,
      neverWritten: 1,
      maxRelativeError: 0.5,
      mismatches: [
        { index: 5, row: 0, col: 5, got: null, expected: 3.5, unwritten: true },
        { index: 2047, row: 1, col: 1023, got: 2.25, expected: 4.5, unwritten: false },
      ],
    },
  });
}

describe('a kernel run’s result', () => {
  it('shows a verified run: the occupancy, the rate, the share of the peak and the kernels beside it', () => {
    const wrapper = mountPanel(kernelRun(saxpyResult()));
    expect(wrapper.get('[data-testid="kernel-run-badge"]').text()).toBe('Verified');
    const fact = (key: string) => wrapper.get(`[data-testid="launch-${key}"] dd`).text();
    expect([fact('occupancy'), fact('grid'), fact('warps'), fact('registers')]).toEqual(['100 %', '65536 × 1 × 1', '64 of 64', '16']);
    expect(wrapper.get('[data-testid="throughput-rate"]').text()).toBe('3 TB/s');
    expect(wrapper.get('[data-testid="throughput-peak"]').text()).toBe('90 %');
    const rows = wrapper.findAll('[data-testid="comparison"]').map((r) => r.findAll('th, td').map((c) => c.text().replace(/\s+/g, ' ')));
    // The reference at 3100 GB/s against yours at 3000: yours reaches 0.97× of it.
    expect(rows).toEqual([
      ['Reference: float4 loads reference', '64.94 µs', '3.1 TB/s', '93 %', '0.97×'],
      ['Built-in SAXPY built-in', '68.25 µs', '2.95 TB/s', '88 %', '1.02×'],
      ['cublasSaxpy library', 'No figure: no cuBLAS on this machine'],
    ]);
    expect(wrapper.find('[data-testid="mismatches"]').exists()).toBe(false);
  });

  it('lists the first wrong elements with their row and column, and calls an unwritten one so', () => {
    const result = wrongProduct();
    const wrapper = mountPanel(kernelRun(result, { status: 'verification-failed' }));
    expect(wrapper.get('[data-testid="kernel-run-badge"]').text()).toBe('Wrong result');
    expect(wrapper.get('[data-testid="verification-verdict"]').text()).toBe(
      'The output is wrong: 31 of the 3071 elements checked differ from the CPU reference. 1 of the 1048576 elements of the output was never written: it still holds the NaN the output was filled with.',
    );
    const cells = wrapper.findAll('[data-testid="mismatch"]').map((r) => r.findAll('td').map((td) => td.text()));
    expect(cells).toEqual([
      ['5', '0', '5', 'NaN, never written', '3.5'],
      ['2047', '1', '1023', '2.25', '4.5'],
    ]);
    expect(wrapper.text()).toContain(
      '3071 of 1.05 M elements checked (the last row, the last column and 1024 at random against float64 dot products, any other NaN or infinity as wrong), every element for having been written; to 1.53e-5 × RMS. Largest relative error 5.0e-1.',
    );
    expect(wrapper.find('[data-testid="throughput"]').exists()).toBe(false);
  });

  it('says the compute host was restarted when the watchdog stopped the kernel, and that nothing else was lost', () => {
    const run = kernelRun(null, { status: 'failed', error: { code: 'TIMEOUT', message: 'The kernel ran past the 10 s watchdog' } });
    const error = mountPanel(run).get('[data-testid="kernel-run-error"]');
    expect(error.text()).toContain('TIMEOUT: The kernel ran past the 10 s watchdog');
    expect(error.text()).toContain('The compute host that ran it was restarted; nothing else was lost');
    expect(error.attributes('role')).toBe('alert');
  });
});

describe('a kernel run’s verification in Spanish', () => {
  afterEach(() => {
    i18n.global.locale.value = 'en';
    setNumberLocale('en');
  });

  function mountSpanish(run: KernelRun) {
    i18n.global.locale.value = 'es';
    setNumberLocale('es');
    return mountPanel(run).get('[data-testid="verification"]').text();
  }

  it('says how the output was checked in Spanish, not in the English the run stored it in, with decimal commas', () => {
    const gemm = mountSpanish(kernelRun(wrongProduct(), { status: 'verification-failed' }));
    expect(gemm).toContain(
      'Se han comprobado 3071 de 1,05 M elementos (la última fila, la última columna y 1024 al azar con productos escalares en float64, cualquier otro NaN o infinito como incorrecto) y, en todos, que se hayan escrito; con tolerancia 1,53e-5 × RMS. Mayor error relativo 5,0e-1.',
    );
    const saxpy = mountSpanish(kernelRun(saxpyResult()));
    expect(saxpy).toContain('Se han comprobado todos los elementos, con tolerancia relativa 1e-5 (al menos 1e-5 × RMS). Mayor error relativo 1,2e-7.');
    for (const text of [gemm, saxpy]) {
      expect(text).not.toMatch(/every element|dot products|at random|relative|\d\.\d/);
    }
  });

  it('names the kernels a stored run was timed beside in the language shown, not the one it was run in', () => {
    i18n.global.locale.value = 'es';
    const english = saxpy('en').kernels.find((k) => k.id === 'grid-stride-float4');
    const spanish = saxpy('es').kernels.find((k) => k.id === 'grid-stride-float4');
    if (!english || !spanish) throw new Error('no grid-stride-float4 reference');
    const stored = saxpyResult();
    const comparisons = [{ ...stored.comparisons[0], id: 'grid-stride-float4', title: english.title }, ...stored.comparisons.slice(1)] as KernelRunResult['comparisons'];
    const table = mountPanel(kernelRun({ ...stored, comparisons }), saxpy('es')).get('[data-testid="comparisons"]').text();
    expect(table).toContain(spanish.title);
    expect(table).not.toContain(english.title);
    // A kernel this version does not have keeps the title it was stored with.
    expect(table).toContain('Built-in SAXPY');
  });

  it('says an exact check of a total in Spanish', () => {
    const total = saxpyResult({
      exercise: 'reduction',
      verification: { ok: true, checked: 1, total: 1, method: 'the total of 16777216 whole numbers', tolerance: 'exact', check: 'total', relativeTolerance: 0, samples: null, mismatchCount: 0, neverWritten: 0, mismatches: [], maxRelativeError: 0 },
    });
    expect(mountSpanish(kernelRun(total, { exercise: 'reduction' }))).toContain('Se ha comprobado el total, exactamente. Mayor error relativo 0.');
  });
});

// The reduction's 32 MiB on an H100's 50 MiB L2: its rate is not DRAM bandwidth, and the report says so beside it.
describe('a kernel run whose data fits in L2', () => {
  afterEach(() => {
    i18n.global.locale.value = 'en';
    setNumberLocale('en');
  });

  function mountIn(locale: 'en' | 'es', result: KernelRunResult) {
    i18n.global.locale.value = locale;
    setNumberLocale(locale);
    return mountPanel(kernelRun(result, { exercise: 'reduction' })).get('[data-testid="throughput"]');
  }

  it('says the data was read from L2 and why there is no share of peak, in English and in Spanish', () => {
    const en = mountIn('en', reductionFromL2Result());
    expect(en.get('[data-testid="throughput-l2"]').text()).toBe(
      'The data (32 MiB) fits in this GPU’s 50 MiB L2 cache: after the first launch it is read from L2, so this rate is not DRAM bandwidth and is not shown as a share of its peak.',
    );
    expect(en.get('[data-testid="throughput-peak"]').text()).toBe('none: read from L2');
    expect(en.text()).not.toContain('peak is not known');
    const es = mountIn('es', reductionFromL2Result());
    expect(es.get('[data-testid="throughput-l2"]').text()).toBe(
      'Los datos (32 MiB) caben en la caché L2 de 50 MiB de esta GPU: tras el primer lanzamiento se leen de la L2, así que esta tasa no es ancho de banda de DRAM y no se muestra como fracción de su pico.',
    );
    expect(es.get('[data-testid="throughput-peak"]').text()).toBe('ninguna: leído de la L2');
  });

  it('says nothing of L2 for a run from DRAM, in either language', () => {
    for (const locale of ['en', 'es'] as const) {
      const report = mountIn(locale, saxpyResult());
      expect(report.find('[data-testid="throughput-l2"]').exists()).toBe(false);
      expect(report.text()).not.toContain('L2');
    }
  });
});
