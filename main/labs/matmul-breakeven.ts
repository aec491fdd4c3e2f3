// Lab matmul-breakeven: N = 50, 100, 200, 500, 1000, 2000, 5000 float32, CPU BLAS against the GPU with the copies included
// (and resident, for comparison); the N where the GPU starts to win, and GFLOP/s against N.
import type { ParamValues } from '../common/lab-descriptor.ts';
import { msg, n as num_, type Message, type MessageValue } from '../common/pure/message.ts';
import type { Finding, PointResult } from '../common/run-record.ts';
import { bestRate, breakEven, breakEvenSummary, cpuSide, crossingOf, find, finding, ownBlasName, rateInterval, speedup, speedupCurve, sweepAgreement, withInterval, type CpuSide } from './analysis.ts';
import { aboutLab, paramWords, presetWords } from './lab-words.ts';
import type { Lab, LabAnalysis, PlanContext, PlannedPoint } from './lab.ts';
import { num, nums } from './lab.ts';
import { labText as labTextEn } from '../common/pure/i18n/en/lab-text.ts';
import {
  BUS_GBPS_GUESS, CPU_GFLOPS_GUESS, GPU_GFLOPS_GUESS, MIN_SAMPLE_MS, batchedSampleSeconds, cpuPoint, gemmWork, gpuPoint, repeatsParam, repeatsWithin, threadsParam, cpuThreadsOf, warmupParam,
  peerPoint,
  pointName,
  sizeN,
} from './plan-helpers.ts';
import { LIMITS, isWebgpuDevice } from '../common/measurement.ts';

const LAB = 'matmul-breakeven';
const SERIES = labTextEn[LAB].series;
const GPU = [
  { series: 'gpu-transfers', label: SERIES['gpu-transfers'], path: 'with-copies' },
  { series: 'gpu-resident', label: SERIES['gpu-resident'], path: 'resident' },
] as const;

// The article's code in PyTorch: its CPU, and its GPU the same two ways, each with the engine's series it matches.
const TORCH = [
  { series: 'torch-transfers', code: 'torch-copies', path: 'with-copies', ours: 'gpu-transfers' },
  { series: 'torch-resident', code: 'torch-resident', path: 'resident', ours: 'gpu-resident' },
] as const;

const m = (key: keyof (typeof labTextEn)[typeof LAB]['findings'], values?: Parameters<typeof msg>[1]): Message => msg(`${LAB}.findings.${key}`, values);
const seriesName = (key: string): Message => msg(`${LAB}.series.${key}`);
const sizeOf = (x: number | null | undefined): MessageValue => (x === null || x === undefined ? '?' : num_.int(x));

function plan(params: ParamValues, ctx: PlanContext): PlannedPoint[] {
  const repeats = num(params, 'repeats');
  const warmup = num(params, 'warmup');
  const threads = cpuThreadsOf(params);
  const points: PlannedPoint[] = [];
  // WebGPU has no cuBLAS: there the GPU series run GPU Lab's tiled WGSL kernel (a finding says so).
  const variant = ctx.gpu?.kind === 'webgpu' ? 'tiled' : 'cublas';
  for (const n of [...new Set(nums(params, 'sizes'))].sort((a, b) => a - b)) {
    const work = gemmWork(n, n, n, 4);
    const cpuSample = batchedSampleSeconds(work.flops / (CPU_GFLOPS_GUESS * 1e9));
    // About 3 s of CPU samples per size: N = 5000 (250 GFLOP) gets the minimum of 2.
    points.push(
      cpuPoint(
        { key: `cpu@${n}`, series: 'cpu', name: pointName(LAB, 'cpu', sizeN(n)), x: n, work, sampleSeconds: cpuSample },
        { op: 'gemm', dtype: 'fp32', variant: 'blas', m: n, n, k: n, warmup: Math.min(warmup, 1), repeats: repeatsWithin(3, cpuSample, 2, repeats), seed: n, minSampleMs: MIN_SAMPLE_MS, ...(threads ? { threads } : {}) },
        8 * n * 1e-6,
        ctx.cpu,
      ),
    );
    for (const g of GPU) {
      const sample = batchedSampleSeconds(work.flops / (GPU_GFLOPS_GUESS * 1e9) + (g.path === 'with-copies' ? work.bytes / (BUS_GBPS_GUESS * 1e9) : 0) + 2e-5);
      points.push(
        gpuPoint(
          ctx,
          { key: `${g.series}@${n}`, series: g.series, name: pointName(LAB, g.series, sizeN(n)), x: n, work, sampleSeconds: sample },
          // The break-even compares waiting times: the GPU on the host clock too, launch and sync included.
          { op: 'gemm', dtype: 'fp32', variant, m: n, n, k: n, path: g.path, clock: 'host', warmup, repeats, seed: n, minSampleMs: MIN_SAMPLE_MS },
        ),
      );
    }
    const fields = { op: 'gemm', dtype: 'fp32', variant: 'blas', m: n, n, k: n, seed: n, minSampleMs: MIN_SAMPLE_MS } as const;
    const torchCpu = peerPoint(
      ctx,
      { key: `torch-cpu@${n}`, series: 'torch-cpu', name: pointName(LAB, 'torch-cpu', sizeN(n)), x: n, work, sampleSeconds: cpuSample },
      { ...fields, warmup: Math.min(warmup, 1), repeats: repeatsWithin(3, cpuSample, 2, repeats) },
      { library: 'torch', code: 'torch-cpu' },
    );
    if (torchCpu) points.push(torchCpu);
    for (const t of TORCH) {
      const sample = batchedSampleSeconds(work.flops / (GPU_GFLOPS_GUESS * 1e9) + (t.path === 'with-copies' ? work.bytes / (BUS_GBPS_GUESS * 1e9) : 0) + 5e-5);
      const base = { key: `${t.series}@${n}`, series: t.series, name: pointName(LAB, t.series, sizeN(n)), x: n, work, sampleSeconds: sample };
      // On the host clock after a synchronise, as the engine's GPU series here.
      const point = peerPoint(ctx, base, { ...fields, variant: 'cublas', path: t.path, clock: 'host', warmup, repeats }, { library: 'torch', code: t.code }, 'gpu');
      if (point) points.push(point);
    }
  }
  return points;
}

// PyTorch's own crossing, its GPU against its CPU, and each of its series against the engine's at the largest N
// both measured.
function torchFindings(points: readonly PointResult[]): Finding[] {
  const out: Finding[] = [];
  for (const t of TORCH) {
    const curve = speedupCurve(points, 'torch-cpu', t.series);
    const b = breakEven(curve, 1);
    const series = seriesName(t.series);
    if (b.kind === 'between') out.push(finding(`${t.series}-break-even`, m('torchOvertakes', { series, size: num_.breakEvenN(b.size) }), b.size, 'N'));
    else if (b.kind === 'below-range') out.push(finding(`${t.series}-break-even`, m('torchBelow', { series, n: num_.int(b.size) }), null, 'N'));
    else if (b.kind === 'never') out.push(finding(`${t.series}-break-even`, m('torchNever', { series, ratio: num_.times(b.best), n: num_.int(b.at) }), null, 'N', 'warning'));
  }
  for (const [peer, ours] of [['torch-cpu', 'cpu'], ...TORCH.map((t) => [t.series, t.ours] as const)] as const) {
    const f = sweepAgreement(points, { peer, ours }, { peer: seriesName(peer), ours: seriesName(ours) }, sizeN);
    if (f) out.push(f);
  }
  return out;
}

// The CPU series a crossing reads against: GPU Lab's BLAS and the article's PyTorch on the CPU, whichever was faster.
const CPU_SERIES = ['cpu', 'torch-cpu'];
const cpuNamer = (points: readonly PointResult[]) => (key: string): Message => (key === 'cpu' ? ownBlasName(find(points, 'cpu')) : seriesName(key));

// The same GPU series against a CPU series beside the fastest, as a sentence after the answer.
function besideText(points: readonly PointResult[], cpu: { key: string; name: Message }, gpu: string): Message | '' {
  const b = breakEven(speedupCurve(points, cpu.key, gpu), 1);
  if (b.kind === 'between') return m('besideBetween', { cpu: cpu.name, size: num_.breakEvenN(b.size) });
  if (b.kind === 'below-range') return m('besideBelow', { cpu: cpu.name, n: num_.int(b.size) });
  if (b.kind === 'never') return m('besideNever', { cpu: cpu.name, ratio: num_.times(b.best), n: num_.int(b.at) });
  return '';
}

// A GPU series' break-even and its range over the sizes, against the fastest CPU series measured, named, with the
// other beside it (DESIGN §10, "Baselines").
function crossingFindings(points: readonly PointResult[], side: CpuSide, g: (typeof GPU)[number]): Finding[] {
  const out: Finding[] = [];
  const { curve, b, low, high } = crossingOf(points, side.key, g.series, 1);
  const series = seriesName(g.series);
  const cpu = side.name;
  const beside = side.others.map((o) => besideText(points, o, g.series)).find((text) => text !== '') ?? '';
  if (b.kind === 'between') {
    // Interpolated, so known to two significant digits, as are the ends of its range.
    const size = num_.breakEvenN(b.size);
    const known = low !== null && high !== null && num_.breakEvenN(high).num > num_.breakEvenN(low).num;
    const text = known ? m('overtakesRange', { series, cpu, size, low: num_.breakEvenN(low), high: num_.breakEvenN(high), beside }) : m('overtakes', { series, cpu, size, beside });
    out.push(withInterval(finding(`${g.series}-break-even`, text, b.size, 'N'), { low, high }));
  }
  else if (b.kind === 'below-range') out.push(finding(`${g.series}-break-even`, belowRangeText(series, points, side, g.series, b.size, beside), null, 'N'));
  else if (b.kind === 'never') out.push(finding(`${g.series}-break-even`, m('never', { series, cpu, ratio: num_.times(b.best), n: num_.int(b.at), beside }), null, 'N', 'warning'));
  const smallest = curve.x[0];
  const largest = curve.x[curve.x.length - 1];
  if (smallest !== undefined && largest !== undefined && smallest !== largest) {
    const sSmall = speedup(find(points, side.key, smallest), find(points, g.series, smallest)) ?? 0;
    const sLarge = speedup(find(points, side.key, largest), find(points, g.series, largest)) ?? 0;
    // The series' best rate, with the N it was reached at: not necessarily the largest.
    const best = bestRate(points, g.series, 'gflops');
    const bestText = best?.gflops ? m('rangeBest', { rate: num_.rate(best.gflops, 'GFLOP/s'), n: sizeOf(best.x) }) : '';
    out.push(finding(`${g.series}-range`, m('range', { series, cpu, small: num_.times(sSmall), smallest: num_.int(smallest), large: num_.times(sLarge), largest: num_.int(largest), best: bestText }), sLarge, 'times'));
  }
  return out;
}

function analyze(points: readonly PointResult[]): LabAnalysis {
  const a: LabAnalysis = { summary: {}, findings: [] };
  const bestCpu = bestRate(points, 'cpu', 'gflops');
  if (bestCpu?.gflops) {
    a.summary['cpu.bestGflops'] = bestCpu.gflops;
    const text = m('cpuRate', { cpu: ownBlasName(bestCpu), rate: num_.rate(bestCpu.gflops, 'GFLOP/s'), n: sizeOf(bestCpu.x), time: num_.ms(bestCpu.stats?.median ?? 0) });
    a.findings.push(withInterval(finding('cpu-rate', text, bestCpu.gflops, 'GFLOP/s'), rateInterval(bestCpu, 'gflops')));
  }
  const side = cpuSide(points, CPU_SERIES, cpuNamer(points));
  for (const g of GPU) {
    // The summary (the chart's marks, a class's spread) keeps the break-even over GPU Lab's own CPU BLAS.
    const { curve, b, low, high } = crossingOf(points, 'cpu', g.series, 1);
    const stored = breakEvenSummary(b, curve);
    a.summary[`${g.series}.breakEvenN`] = stored.size;
    a.summary[`${g.series}.breakEvenNAtMost`] = stored.atMost;
    a.summary[`${g.series}.breakEvenNAbove`] = stored.above;
    a.summary[`${g.series}.bestGflops`] = bestRate(points, g.series, 'gflops')?.gflops ?? null;
    a.summary[`${g.series}.breakEvenNLow`] = low;
    a.summary[`${g.series}.breakEvenNHigh`] = high;
    if (side) a.findings.push(...crossingFindings(points, side, g));
  }
  a.findings.push(...torchFindings(points));
  const onWebgpu = points.some((p) => p.status === 'ok' && GPU.some((g) => g.series === p.series) && isWebgpuDevice(p.device));
  if (onWebgpu) a.findings.push(finding('webgpu-kernel', m('webgpuKernel')));
  return a;
}

// "Faster" only where the samples say so beyond their spread: the GPU's slower quartile under the CPU's faster one.
// A speedup of 1.03× whose middle halves overlap is a tie, and is called one.
function belowRangeText(series: Message, points: readonly PointResult[], side: CpuSide, key: string, smallest: number, beside: Message | ''): Message {
  const cpu = find(points, side.key, smallest)?.stats;
  const gpu = find(points, key, smallest)?.stats;
  if (cpu && gpu && gpu.q3 < cpu.q1) return m('faster', { series, cpu: side.name, n: num_.int(smallest), beside });
  const ratio = cpu && gpu && gpu.median > 0 ? m('levelRatio', { ratio: num_.times(cpu.median / gpu.median) }) : '';
  return m('level', { series, cpu: side.name, n: num_.int(smallest), ratio, beside });
}

export const matmulBreakevenLab: Lab = {
  descriptor: {
    id: 'matmul-breakeven',
    ...aboutLab(LAB),
    parameters: [
      // 50 and 200 beside the article's sizes: the resident GPU overtakes near N = 100 and the GPU with copies near
      // 300 on an H100, and a break-even is only a number when a measured size lies on each side of it.
      { kind: 'integer-list', name: 'sizes', ...paramWords(LAB, 'sizes'), unit: '', default: [50, 100, 200, 500, 1000, 2000, 5000], min: 16, max: LIMITS.matrixOrder, maxItems: 16 },
      repeatsParam(20),
      warmupParam(1),
      threadsParam(),
    ],
    presets: [
      { id: 'default', ...presetWords(LAB, 'default'), params: {} },
      { id: 'seed-003', ...presetWords(LAB, 'seed-003'), params: { sizes: [100, 500, 1000, 5000] } },
      { id: 'small', ...presetWords(LAB, 'small'), params: { sizes: [16, 32, 64, 128, 256, 512] } },
    ],
    kernels: [
      { kind: 'library', file: 'OpenBLAS', functions: ['cblas_sgemm'], fallback: 'native/cpu/gemm.cc' },
      { kind: 'cpu', file: 'native/cpu/gemm.cc', functions: ['BlockedGemm'] },
      { kind: 'library', file: 'cuBLAS', functions: ['cublasGemmEx (CUBLAS_COMPUTE_32F)'] },
      { kind: 'wgsl', file: 'shaders/wgsl/gemm.wgsl', functions: ['tiled'] },
      { kind: 'python', file: 'python/gpu_lab_peers/labs/matmul.py', functions: ['torch_cpu', 'torch_copies', 'torch_resident'] },
    ],
    series: [
      { key: 'cpu', label: SERIES.cpu, deviceKind: 'cpu' },
      ...GPU.map((g) => ({ key: g.series, label: g.label, deviceKind: 'cuda' as const, baseline: 'cpu' })),
      // PyTorch's series in the hue of the engine's series each matches.
      { key: 'torch-cpu', label: SERIES['torch-cpu'], deviceKind: 'cpu', peer: 'torch', family: 'cpu' },
      ...TORCH.map((t) => ({ key: t.series, label: SERIES[t.series], deviceKind: 'cuda' as const, baseline: 'torch-cpu', peer: 'torch' as const, family: t.ours })),
    ],
    headline: ['gpu-transfers-break-even', 'gpu-resident-break-even', 'cpu-rate'],
    // Time against N: a rate of the GPU with its copies would be the bus's, not the product's (plan-helpers.ts).
    chart: { x: { quantity: 'matrix-n', log: true }, y: { quantity: 'ms', log: true } },
  },
  plan,
  analyze,
};
