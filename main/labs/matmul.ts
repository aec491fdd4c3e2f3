// Lab matmul: C = A·B for N = 7000 float32, the seed notebook's experiment: CPU BLAS, the GPU with the copies
// included, the GPU with the data resident (cuBLAS), and two hand-written kernels (naive and tiled).
import type { DeviceSummary } from '../common/devices.ts';
import { formatMs, formatPercent, formatRate, formatTimes } from '../common/format.ts';
import type { ParamValues } from '../common/lab-descriptor.ts';
import type { PointResult } from '../common/run-record.ts';
import { find, finding, okMedian, speedup } from './analysis.ts';
import type { Lab, LabAnalysis, PlanContext, PlannedPoint } from './lab.ts';
import { num } from './lab.ts';
import { BUS_GBPS_GUESS, CPU_GFLOPS_GUESS, GPU_GFLOPS_GUESS, cpuPoint, gemmWork, gpuPoint, repeatsParam, warmupParam } from './plan-helpers.ts';

const GPU_SERIES = [
  { series: 'gpu-transfers', label: 'GPU cuBLAS with transfers', variant: 'cublas', path: 'with-transfers', speed: 1 },
  { series: 'gpu-cublas', label: 'GPU cuBLAS resident', variant: 'cublas', path: 'resident', speed: 1 },
  { series: 'gpu-tiled', label: 'GPU tiled kernel', variant: 'tiled', path: 'resident', speed: 0.15 },
  { series: 'gpu-naive', label: 'GPU naive kernel', variant: 'naive', path: 'resident', speed: 0.05 },
] as const;

function plan(params: ParamValues, ctx: PlanContext): PlannedPoint[] {
  const n = num(params, 'n');
  const work = gemmWork(n, n, n, 4);
  const warmup = num(params, 'warmup');
  const cpuSample = work.flops / (CPU_GFLOPS_GUESS * 1e9);
  const points: PlannedPoint[] = [
    cpuPoint(
      { key: 'cpu-blas', series: 'cpu-blas', label: `CPU BLAS, N = ${n}`, x: null, work, sampleSeconds: cpuSample },
      { op: 'gemm', dtype: 'fp32', variant: 'blas', m: n, n, k: n, warmup: Math.min(warmup, 1), repeats: num(params, 'cpuRepeats'), seed: n },
      // Verification reads 8 columns of B element by element: about 1 µs per element.
      8 * n * 1e-6,
    ),
  ];
  for (const s of GPU_SERIES) {
    const bus = s.path === 'with-transfers' ? work.bytes / (BUS_GBPS_GUESS * 1e9) : 0;
    points.push(
      gpuPoint(
        ctx,
        { key: s.series, series: s.series, label: `${s.label}, N = ${n}`, x: null, work, sampleSeconds: work.flops / (GPU_GFLOPS_GUESS * s.speed * 1e9) + bus },
        { op: 'gemm', dtype: 'fp32', variant: s.variant, m: n, n, k: n, path: s.path, warmup, repeats: num(params, 'repeats'), seed: n },
        s.path === 'with-transfers' ? 'host' : 'device',
      ),
    );
  }
  return points;
}

function analyze(points: readonly PointResult[], _params: ParamValues, gpu: DeviceSummary | null): LabAnalysis {
  const a: LabAnalysis = { summary: {}, findings: [] };
  const cpu = find(points, 'cpu-blas');
  const cpuMs = okMedian(cpu);
  a.summary['cpu.ms'] = cpuMs;
  a.summary['cpu.gflops'] = cpu?.gflops ?? null;
  if (cpu && cpuMs !== null) {
    a.findings.push(finding('cpu-rate', `The CPU (${cpu.implementation ?? 'BLAS'}, ${cpu.threads ?? '?'} threads) multiplies the matrices in ${formatMs(cpuMs)}: ${formatRate(cpu.gflops ?? 0, 'GFLOP/s')}.`, cpu.gflops, 'GFLOP/s'));
  }
  for (const s of GPU_SERIES) {
    const p = find(points, s.series);
    const x = speedup(cpu, p);
    a.summary[`${s.series}.ms`] = okMedian(p);
    a.summary[`${s.series}.speedupVsCpu`] = x;
    a.summary[`${s.series}.gflops`] = p?.gflops ?? null;
    if (p && x !== null) {
      const peak = gpu?.peakGflopsFp32 && p.gflops ? `, ${formatPercent(p.gflops / gpu.peakGflopsFp32)} of the GPU's fp32 peak` : '';
      a.findings.push(finding(`${s.series}-speedup`, `${s.label}: ${formatMs(okMedian(p) ?? 0)}, ${formatTimes(x)} the CPU's speed (${formatRate(p.gflops ?? 0, 'GFLOP/s')}${peak}).`, x, '×'));
    }
  }
  const withCopies = okMedian(find(points, 'gpu-transfers'));
  const resident = okMedian(find(points, 'gpu-cublas'));
  if (withCopies !== null && resident !== null && withCopies > 0) {
    const share = Math.max(0, (withCopies - resident) / withCopies);
    a.summary.transferShare = share;
    a.findings.push(finding('transfer-share', `Transfers are ${formatPercent(share)} of the end-to-end GPU time (${formatMs(withCopies)} with copies, ${formatMs(resident)} without).`, share * 100, '%'));
  }
  const tiledOverNaive = speedup(find(points, 'gpu-naive'), find(points, 'gpu-tiled'));
  if (tiledOverNaive !== null) {
    a.summary.tiledOverNaive = tiledOverNaive;
    a.findings.push(finding('tiling', `Tiling in shared memory makes the hand-written kernel ${formatTimes(tiledOverNaive)} faster than the naive one.`, tiledOverNaive, '×'));
  }
  const cublasOverTiled = speedup(find(points, 'gpu-tiled'), find(points, 'gpu-cublas'));
  if (cublasOverTiled !== null) {
    a.summary.cublasOverTiled = cublasOverTiled;
    a.findings.push(finding('library', `cuBLAS is ${formatTimes(cublasOverTiled)} faster than the tiled kernel: register blocking, tensor cores and years of tuning.`, cublasOverTiled, '×'));
  }
  return a;
}

export const matmulLab: Lab = {
  descriptor: {
    id: 'matmul',
    title: 'Matrix product: CPU, GPU, and the cost of getting there',
    summary: 'C = A·B for N = 7000 float32 on the CPU (BLAS) and the GPU: with and without transfers, cuBLAS against hand-written naive and tiled kernels.',
    explanation: [
      'A product of two N×N matrices does 2·N³ floating-point operations on 3·N² numbers: for N = 7000 that is 686 billion operations on 588 MB. Each number is used N times, so the work is limited by arithmetic, not by memory: this is where a GPU shines.',
      'The course notebook measured this on an RTX 2080 Ti: 580 ms with NumPy on the CPU, 106.5 ms on the GPU counting the copies of A and B to the GPU and of C back, and 50.4 ms with the matrices already there. This lab repeats the experiment properly: warmed up, repeated, and every result checked against a float64 recomputation of sampled entries.',
      'The hand-written kernels show why libraries matter. The naive kernel computes one output per thread straight from global memory; the tiled kernel loads 32×32 blocks into shared memory so that each value fetched is reused 32 times. cuBLAS goes further still.',
    ],
    lookFor: [
      'The speedup of the GPU over the CPU with and without transfers, and the share of the end-to-end time the transfers take.',
      'GFLOP/s of each version, and how far each is from the GPU\'s theoretical peak.',
      'How much tiling gains over the naive kernel, and how much cuBLAS gains over tiling.',
    ],
    parameters: [
      { kind: 'integer', name: 'n', label: 'Matrix size N', description: 'The matrices are N×N float32 (3·N²·4 bytes in all).', unit: '', default: 7000, min: 16, max: 16384 },
      repeatsParam(10),
      { kind: 'integer', name: 'cpuRepeats', label: 'CPU repeats', description: 'Timed CPU samples: at N = 7000 one takes seconds on a laptop.', unit: 'samples', default: 3, min: 1, max: 100 },
      warmupParam(1),
    ],
    kernels: [
      { kind: 'library', file: 'OpenBLAS (sgemm), else native/cpu/gemm.cc', functions: ['cblas_sgemm', 'blocked GEMM'] },
      { kind: 'library', file: 'cuBLAS', functions: ['cublasSgemm'] },
      { kind: 'cuda', file: 'shaders/cuda/sgemm.cu', functions: ['SgemmNaiveKernel', 'SgemmTiledKernel'] },
    ],
    series: [
      { key: 'cpu-blas', label: 'CPU BLAS', deviceKind: 'cpu' },
      ...GPU_SERIES.map((s) => ({ key: s.series, label: s.label, deviceKind: 'cuda' as const })),
    ],
    chart: { x: { quantity: 'category', log: false }, y: { quantity: 'ms' } },
  },
  plan,
  analyze,
};
