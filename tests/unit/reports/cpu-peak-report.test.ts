// A share read against the CPU's estimated peak is marked as an estimate wherever "% of peak" is shown — the app's
// results table, the command line's run table and the PDF's results table — in English and Spanish, and a share over
// 100 % is shown as it is, never clamped; a share of a table peak carries no mark.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { runTable } from '../../../main/cli/run-table.ts';
import { cliText } from '../../../main/cli/cli-text.ts';
import type { DeviceSummary } from '../../../main/common/devices.ts';
import { results as resultsEs } from '../../../main/common/pure/i18n/es/results.ts';
import { catalogTranslate } from '../../../main/common/pure/i18n/translate.ts';
import { setNumberLocale } from '../../../main/common/pure/locale.ts';
import { validateParams } from '../../../main/common/params.ts';
import type { PointPeak, PointResult, RunRecord } from '../../../main/common/run-record.ts';
import { findLab } from '../../../main/labs/index.ts';
import { writeRunReport } from '../../../main/reports/report-writer.ts';
import { withCurrentFindings } from '../../../main/runs/current-findings.ts';
import { resultRow } from '../../../main/common/pure/charts/result-rows.ts';
import { pointFromPlan } from '../labs/synthetic.ts';
import { appT, fixture, fixturesDir, pdfText, savePdf, spaced } from './pdf-tools.ts';

const ESTIMATE: PointPeak = { name: 'fp32', unit: 'GFLOP/s', value: 400, source: 'estimate' };
const TABLE: PointPeak = { name: 'fp32', unit: 'GFLOP/s', value: 400 };
// The mark follows the peak's source, whatever the point: a GEMM point stands in for an elementwise one here.
const MEASURED: PointPeak = { name: 'fp32', unit: 'GFLOP/s', value: 400, source: 'measured' };

// The matmul lab's CPU point, measured at `gflops`, read against `peak`.
function cpuGemm(gflops: number, peak: PointPeak | null): PointResult {
  const lab = findLab('matmul');
  if (!lab) throw new Error('no matmul lab');
  const planned = lab.plan(validateParams('matmul', lab.descriptor.parameters, { n: 1000 }), {
    cpu: { id: 'cpu', kind: 'cpu', name: 'Test CPU', peakGflopsFp32: null, peakGflopsFp64: null, peakMemoryGBps: null, memoryBytes: null, details: {} },
    cpuThreads: 2,
    gpu: null,
    gpuWaivedReason: 'none',
    gpuWaivedWhy: null,
  }).find((p) => p.key === 'cpu-blas');
  if (!planned) throw new Error('no cpu-blas');
  return { ...pointFromPlan(planned, planned.work.flops / (gflops * 1e6)), peak };
}

const esT = catalogTranslate({ results: resultsEs }, 'es');
const matmul = (): NonNullable<ReturnType<typeof findLab>>['descriptor'] => {
  const lab = findLab('matmul');
  if (!lab) throw new Error('no matmul lab');
  return lab.descriptor;
};

describe('the app’s results row', () => {
  afterEach(() => setNumberLocale('en'));

  it('marks a share of the CPU’s estimate, over 100 % as it is, in English and Spanish', () => {
    const over = cpuGemm(520, ESTIMATE);
    expect(resultRow(over, matmul(), undefined, appT)).toMatchObject({ shareOfPeak: '130 % (est.)', peakEstimate: true });
    expect(resultRow(cpuGemm(336, ESTIMATE), matmul(), undefined, appT).shareOfPeak).toBe('84 % (est.)');
    setNumberLocale('es');
    expect(resultRow(over, matmul(), undefined, esT)).toMatchObject({ shareOfPeak: '130 % (estim.)', peakEstimate: true });
  });

  it('marks a share of the CPU’s measured bandwidth as measured, over 100 % as it is, in English and Spanish', () => {
    const over = cpuGemm(520, MEASURED);
    expect(resultRow(over, matmul(), undefined, appT)).toMatchObject({ shareOfPeak: '130 % (meas.)', peakMeasured: true, peakEstimate: false });
    setNumberLocale('es');
    expect(resultRow(over, matmul(), undefined, esT)).toMatchObject({ shareOfPeak: '130 % (med.)', peakMeasured: true });
  });

  it('leaves a share of a table peak unmarked, and unclamped too', () => {
    expect(resultRow(cpuGemm(520, TABLE), matmul(), undefined, appT)).toMatchObject({ shareOfPeak: '130 %', peakEstimate: false });
    expect(resultRow(cpuGemm(520, null), matmul(), undefined, appT)).toMatchObject({ shareOfPeak: '—', peakEstimate: false });
  });
});

describe('the command line’s run table', () => {
  const en = runTable(cliText('en'), 'en');
  const es = runTable(cliText('es'), 'es');

  it('heads a % of peak column in both languages', () => {
    expect(en.header()).toMatch(/\brate\s+% of peak\s+rel\. error$/m);
    expect(es.header()).toMatch(/\brendimiento\s+% del pico\s+error rel\.$/m);
  });

  it('marks a share of the CPU’s estimate, over 100 % as it is, in English and Spanish', () => {
    expect(en.row(cpuGemm(520, ESTIMATE))).toMatch(/GFLOP\/s\s+130 % \(est\.\)\s/);
    expect(es.row(cpuGemm(520, ESTIMATE))).toMatch(/GFLOP\/s\s+130 % \(estim\.\)\s/);
    expect(en.row(cpuGemm(336, ESTIMATE))).toMatch(/\s84 % \(est\.\)\s/);
    expect(en.row(cpuGemm(520, MEASURED))).toMatch(/GFLOP\/s\s+130 % \(meas\.\)\s/);
    expect(es.row(cpuGemm(520, MEASURED))).toMatch(/GFLOP\/s\s+130 % \(med\.\)\s/);
  });

  it('leaves a share of a table peak unmarked and unclamped, and a point without a peak blank', () => {
    const table = en.row(cpuGemm(520, TABLE));
    expect(table).toMatch(/GFLOP\/s\s+130 %\s/);
    expect(table).not.toContain('(est.)');
    expect(en.row(cpuGemm(520, null))).toMatch(/GFLOP\/s\s+—\s/);
  });
});

describe('the PDF’s results table', () => {
  // The CPU's matmul-breakeven run as its file holds it (schema version 1), its CPU summary given an estimated fp32
  // peak that its best point passes by 30 %: a version 1 record's peaks are read again from its CPU as the record is
  // read (runs/stored-record.ts, current-work.ts), as a reader's app reads it; a version 2 record's are the runner's.
  function estimatedRun(): unknown {
    const stored = fixture('cpu-matmul-breakeven');
    const best = Math.max(...withCurrentFindings(stored).points.map((p) => (p.device === 'cpu' && p.status === 'ok' ? (p.gflops ?? 0) : 0)));
    const file = JSON.parse(readFileSync(join(fixturesDir, 'cpu-matmul-breakeven.json'), 'utf8')) as Pick<RunRecord, 'environment'> & { schemaVersion: number };
    expect(file.schemaVersion).toBe(1);
    const devices = file.environment.devices;
    if (!devices) throw new Error('no device list');
    const estimated = (d: DeviceSummary): DeviceSummary =>
      d.kind === 'cpu' ? { ...d, peakGflopsFp32: best / 1.3, peakGflopsFp64: best / 2.6, details: { ...d.details, peakSource: 'estimate', peakFp32Formula: 'estimate: test', peakFp64Formula: 'estimate: test' } } : d;
    return { ...file, environment: { ...file.environment, devices: { ...devices, devices: devices.devices.map(estimated) } } };
  }

  it.each([
    ['en', '130 % (est.)', /CPU GEMM on every core is read against the CPU’s estimated peak.*can pass 100 %/],
    ['es', '130 % (estim.)', /GEMM de la CPU en todos sus núcleos se compara con el pico estimado.*puede superar el 100 %/],
  ] as const)('marks the CPU’s shares as estimates, the best at 130 %, and says why in the method (%s)', async (locale, best, method) => {
    const pdf = await writeRunReport(estimatedRun(), { date: new Date('2026-11-24T10:00:00Z'), writerVersion: '0.1.0', locale });
    const text = spaced(pdfText(savePdf(pdf.bytes)));
    expect(text).toContain(best);
    expect(text).toMatch(method);
    // The estimate itself is shown with the device, with its formula.
    expect(text).toContain('estimate: test');
  });

  it('shows no share for the CPU without an estimate', async () => {
    const pdf = await writeRunReport(fixture('cpu-matmul-breakeven'), { date: new Date('2026-11-24T10:00:00Z'), writerVersion: '0.1.0' });
    const text = spaced(pdfText(savePdf(pdf.bytes)));
    expect(text).not.toMatch(/\d % \(est\.\)/);
  });
});
