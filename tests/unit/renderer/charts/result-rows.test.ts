// The results table's rows: the figures of each point formatted as a reader expects them, the speedup over the right
// baseline, the share of peak as main/common computes it, the verification in symbols and words, and why a point has
// no time.
import { afterEach, describe, expect, it } from 'vitest';

import { shareOfPeak as commonShareOfPeak } from '../../../../main/common/run-record.ts';
import { measuredPoint } from '../../../../main/runs/point-result.ts';
import { setNumberLocale } from '../../../../main/common/pure/locale.ts';
import { findLab, labDescriptors } from '../../../../main/labs/index.ts';
import { validateParams } from '../../../../main/common/params.ts';
import { catalogTranslate } from '../../../../main/common/pure/i18n/translate.ts';
import { shareOfPeak } from '../../../../main/common/pure/charts/points.ts';
import { resultRows } from '../../../../main/common/pure/charts/result-rows.ts';
import { results as resultsEs } from '../../../../main/common/pure/i18n/es/results.ts';
import { formatRate } from '../../../../main/common/pure/format.ts';
import { WITH_GPU } from '../../labs/synthetic.ts';
import { fixtureRun, syntheticRun, t } from './synthetic-runs.ts';

const FIXTURES = ['cpu-dtypes', 'cpu-elementwise-breakeven', 'cpu-matmul', 'cpu-matmul-breakeven', 'cpu-timing-pitfalls', 'cpu-transfer', 'cpu-vector-function', 'h100-dtypes', 'h100-elementwise-breakeven', 'h100-matmul', 'h100-matmul-breakeven', 'h100-timing-pitfalls', 'h100-transfer', 'h100-vector-function'];

function row(name: string, key: string) {
  const { record, lab } = fixtureRun(name);
  const found = resultRows(record, lab, t).find((r) => r.key === key);
  if (!found) throw new Error(`no row ${key}`);
  return found;
}

describe('results rows', () => {
  it('gives cuBLAS on the H100 its time, spread, rate, share of the fp32 peak, speedup over the CPU and verification', () => {
    // 707.5 ms ÷ 14.57 ms = 48.6×; 47 095 GFLOP/s ÷ 66 908 GFLOP/s = 70 %.
    expect(row('h100-matmul', 'gpu-cublas')).toMatchObject({
      label: 'GPU cuBLAS resident, N = 7,000',
      device: 'cuda:0',
      status: 'ok',
      statusText: 'measured',
      median: '14.57 ms',
      rate: '47.09 TFLOP/s',
      shareOfPeak: '70 %',
      speedup: '48.6×',
      speedupOver: 'CPU BLAS',
      verified: 'passed',
      verifiedMark: '✓',
      verifiedText: 'Result correct: relative error 1.7e-6, tolerance 4.0e-5',
      noisy: false,
      reason: '',
    });
  });

  it('gives the IQR and the min–max of the samples', () => {
    const { record, lab } = fixtureRun('h100-matmul');
    const stats = record.points.find((p) => p.key === 'cpu-blas')?.stats;
    const r = resultRows(record, lab, t)[0];
    expect(stats).toBeTruthy();
    expect(r?.iqr).toBe(`${(stats?.iqr ?? 0).toPrecision(4)} ms`);
    expect(r?.range).toMatch(/^\d+(\.\d+)? ms – \d+(\.\d+)? ms$/);
    expect(r).toMatchObject({ speedup: '—', speedupOver: '', shareOfPeak: '—' });
  });

  it('computes the share of peak exactly as main/common does, for every point of every fixture', () => {
    for (const name of FIXTURES) {
      for (const p of fixtureRun(name).record.points) expect(shareOfPeak(p), `${name} ${p.key}`).toBe(commonShareOfPeak(p));
    }
  });

  it('reads each type against the CPU of the same type in the dtypes lab, and int8 in operations per second', () => {
    // 131.8 ms ÷ 2.641 ms = 49.9×.
    expect(row('h100-dtypes', 'gpu-fp32')).toMatchObject({ speedup: '49.9×', speedupOver: 'CPU', rate: '52.04 TFLOP/s' });
    expect(row('h100-dtypes', 'gpu-int8')).toMatchObject({ rate: '1,374 TOP/s', speedup: '—', verifiedText: 'Result correct: relative error 0, tolerance 0' });
  });

  it('shows the rate the work is bound by where the chart measures time: GB/s for the vector function, GFLOP/s for GEMM', () => {
    const vector = fixtureRun('h100-vector-function').record.points.find((p) => p.key === 'gpu-fused');
    // 5 FLOPs on 24 bytes per element: bound by memory.
    expect(row('h100-vector-function', 'gpu-fused')).toMatchObject({ rate: formatRate(vector?.gbps ?? 0, 'GB/s'), speedupOver: 'CPU, all threads' });
    expect(row('h100-timing-pitfalls', 'gpu-events').rate).toMatch(/FLOP\/s$/);
  });

  it('marks each point the course’s own code measured with its library, and no point of the engine’s', () => {
    const { record, lab } = syntheticRun('transfer', { peers: true, params: { directions: ['h2d'], modes: ['sync'] } });
    const rows = resultRows(record, lab, t);
    const marked = rows.filter((r) => r.peer !== '');
    expect(new Set(marked.map((r) => r.series))).toEqual(new Set(['torch-h2d-pageable', 'torch-h2d-pinned']));
    expect(new Set(marked.map((r) => r.peer))).toEqual(new Set(['Python · PyTorch']));
    expect(rows.filter((r) => r.series.startsWith('h2d-')).every((r) => r.peer === '')).toBe(true);
  });

  it('gives a waived point no time and says why', () => {
    expect(row('cpu-matmul', 'gpu-cublas')).toMatchObject({
      status: 'waived',
      statusText: 'waived',
      median: '—',
      rate: '—',
      speedup: '—',
      verified: 'unchecked',
      reason: 'no CUDA device: no NVIDIA driver is installed (libcuda.so.1 was not found)',
    });
  });

  it('marks a wrong result failed with ✗, the error against the tolerance, and no time', () => {
    const lab = findLab('vector-function');
    if (!lab) throw new Error('no lab');
    const planned = lab.plan(validateParams('vector-function', lab.descriptor.parameters, {}), WITH_GPU).find((p) => p.key === 'gpu-fused');
    if (!planned) throw new Error('no point');
    const wrong = measuredPoint(planned, {
      clock: 'events',
      hostMs: [1, 1, 1],
      deviceMs: [1, 1, 1],
      executionsPerSample: 1,
      implementation: 'test',
      threads: 2,
      verification: { method: 'full', checked: 10, total: 10, relativeError: 0.25, tolerance: 1e-12, passed: false, mismatches: [] },
      telemetry: null,
    });
    const { record } = syntheticRun('vector-function');
    const rows = resultRows({ ...record, points: record.points.map((p) => (p.key === 'gpu-fused' ? wrong : p)) }, lab.descriptor, t);
    expect(rows.find((r) => r.key === 'gpu-fused')).toMatchObject({
      status: 'failed',
      median: '—',
      rate: '—',
      speedup: '—',
      verified: 'failed',
      verifiedMark: '✗',
      verifiedText: 'Result wrong: relative error 2.5e-1, tolerance 1.0e-12',
    });
    expect(rows.find((r) => r.key === 'gpu-fused')?.reason).toMatch(/^The result is wrong/);
  });

  it('flags noisy points', () => {
    const { record, lab } = fixtureRun('h100-elementwise-breakeven');
    const noisy = record.points.filter((p) => p.stats?.noisy).map((p) => p.key);
    expect(noisy.length).toBeGreaterThan(0);
    expect(resultRows(record, lab, t).filter((r) => r.noisy).map((r) => r.key)).toEqual(noisy);
  });
});

describe('results rows in Spanish', () => {
  const { record } = fixtureRun('h100-matmul-breakeven');
  const spanishLab = labDescriptors('es').find((d) => d.id === 'matmul-breakeven');
  const tEs = catalogTranslate({ results: resultsEs });
  afterEach(() => setNumberLocale('en'));

  it('names each point of a run recorded in English in Spanish, and writes its figures with a decimal comma', () => {
    if (!spanishLab) throw new Error('no Spanish matmul-breakeven');
    setNumberLocale('es');
    const rows = resultRows(record, spanishLab, tEs);
    expect(rows.find((r) => r.key === 'gpu-transfers@100')).toMatchObject({
      label: 'GPU con transferencias, N = 100',
      statusText: 'medido',
      median: '61,76 µs',
      speedup: '0,24×',
      speedupOver: 'BLAS en la CPU',
    });
    expect(rows.map((r) => r.label).filter((l) => /\b(transfers|resident|CPU BLAS)\b/.test(l))).toEqual([]);
  });
});
