// Lab matmul: C = A·B for N = 7000 float32, the seed notebook's experiment: CPU BLAS, the GPU with the copies
// included, the GPU with the data resident (cuBLAS), and two hand-written kernels (naive and tiled).
import type { ParamValues, SeriesDescriptor } from '../common/lab-descriptor.ts';
import { msg, n as num_, type Message } from '../common/pure/message.ts';
import { shareOfPeak, type PointResult } from '../common/run-record.ts';
import { agreementFinding, cpuSide, find, finding, okMedian, ownBlasName, rateInterval, speedup, speedupInterval, speedupValue, withInterval } from './analysis.ts';
import { aboutLab, paramWords, presetWords } from './lab-words.ts';
import type { Lab, LabAnalysis, PlanContext, PlannedPoint } from './lab.ts';
import { num } from './lab.ts';
import { labText as labTextEn } from '../common/pure/i18n/en/lab-text.ts';
import { BUS_GBPS_GUESS, CPU_GFLOPS_GUESS, GPU_GFLOPS_GUESS, cpuPoint, gemmWork, gpuPoint, peerPoint, pointName, repeatsParam, sizeN, warmupParam } from './plan-helpers.ts';
import { compareTimes, estimateOf, type Order } from '../common/pure/claims.ts';
import { LIMITS, isWebgpuDevice } from '../common/measurement.ts';

const LAB = 'matmul';
const SERIES = labTextEn[LAB].series;
// On WebGPU the cuBLAS series are waived (there is no cuBLAS) and the tiled kernel is also timed with the copies,
// which on CUDA only cuBLAS is: `webgpu` marks the series planned on a WebGPU adapter alone.
const GPU_SERIES = [
  { series: 'gpu-transfers', label: SERIES['gpu-transfers'], variant: 'cublas', path: 'with-copies', speed: 1, webgpu: false },
  { series: 'gpu-cublas', label: SERIES['gpu-cublas'], variant: 'cublas', path: 'resident', speed: 1, webgpu: false },
  { series: 'gpu-tiled', label: SERIES['gpu-tiled'], variant: 'tiled', path: 'resident', speed: 0.15, webgpu: false },
  { series: 'gpu-naive', label: SERIES['gpu-naive'], variant: 'naive', path: 'resident', speed: 0.05, webgpu: false },
  // Last, in the tiled kernel's hue: the other series keep their colours.
  { series: 'gpu-tiled-transfers', label: SERIES['gpu-tiled-transfers'], variant: 'tiled', path: 'with-copies', speed: 0.15, webgpu: true },
] as const;
// The end-to-end time and the resident time of the same product, as the transfer share reads them.
const COPY_PAIRS = [
  ['gpu-transfers', 'gpu-cublas'],
  ['gpu-tiled-transfers', 'gpu-tiled'],
] as const;

const m = (key: keyof (typeof labTextEn)[typeof LAB]['findings'], values?: Parameters<typeof msg>[1]): Message => msg(`${LAB}.findings.${key}`, values);
// Seed 000's notebook beside the engine (python/gpu_lab_peers/labs/matmul.py), each against the engine's series that
// measures the same thing: NumPy's `@` against the CPU BLAS, torch resident against cuBLAS resident, torch with
// `.to()`/`.cpu()` against cuBLAS with the transfers.
const PEER_SERIES = [
  { series: 'numpy-matmul', library: 'numpy', code: 'numpy-matmul', gpu: null, ours: 'cpu-blas' },
  { series: 'torch-resident', library: 'torch', code: 'torch-resident', gpu: { clock: 'events', path: 'resident' }, ours: 'gpu-cublas' },
  { series: 'torch-copies', library: 'torch', code: 'torch-copies', gpu: { clock: 'host', path: 'with-copies' }, ours: 'gpu-transfers' },
] as const;
// The CPU series the GPU's speedups read against: GPU Lab's BLAS and the notebook's NumPy, whichever was faster.
const CPU_SERIES = ['cpu-blas', 'numpy-matmul'];

const seriesName = (key: string): Message => msg(`${LAB}.series.${key}`);

function plan(params: ParamValues, ctx: PlanContext): PlannedPoint[] {
  const n = num(params, 'n');
  const work = gemmWork(n, n, n, 4);
  const warmup = num(params, 'warmup');
  const cpuSample = work.flops / (CPU_GFLOPS_GUESS * 1e9);
  const points: PlannedPoint[] = [
    cpuPoint(
      { key: 'cpu-blas', series: 'cpu-blas', name: pointName(LAB, 'cpu-blas', sizeN(n)), x: null, work, sampleSeconds: cpuSample },
      { op: 'gemm', dtype: 'fp32', variant: 'blas', m: n, n, k: n, warmup: Math.min(warmup, 1), repeats: num(params, 'cpuRepeats'), seed: n },
      // Verification reads 8 columns of B element by element: about 1 µs per element.
      8 * n * 1e-6,
      ctx.cpu,
    ),
  ];
  const webgpu = ctx.gpu?.kind === 'webgpu';
  for (const s of GPU_SERIES.filter((g) => webgpu || !g.webgpu)) {
    const bus = s.path === 'with-copies' ? work.bytes / (BUS_GBPS_GUESS * 1e9) : 0;
    points.push(
      gpuPoint(
        ctx,
        { key: s.series, series: s.series, name: pointName(LAB, s.series, sizeN(n)), x: null, work, sampleSeconds: work.flops / (GPU_GFLOPS_GUESS * s.speed * 1e9) + bus },
        // With the copies, on the host's clock: events would leave out the host's waits between them.
        { op: 'gemm', dtype: 'fp32', variant: s.variant, m: n, n, k: n, path: s.path, ...(s.path === 'with-copies' ? { clock: 'host' as const } : {}), warmup, repeats: num(params, 'repeats'), seed: n },
      ),
    );
  }
  const fields = { op: 'gemm', dtype: 'fp32', variant: 'blas', m: n, n, k: n, seed: n } as const;
  for (const s of PEER_SERIES) {
    const base = { key: s.series, series: s.series, name: pointName(LAB, s.series, sizeN(n)), x: null, work, sampleSeconds: s.gpu ? work.flops / (GPU_GFLOPS_GUESS * 1e9) + (s.gpu.path === 'with-copies' ? work.bytes / (BUS_GBPS_GUESS * 1e9) : 0) : cpuSample };
    const repeats = s.gpu ? num(params, 'repeats') : num(params, 'cpuRepeats');
    // On the GPU, the measurement cuBLAS's series of the same path has, so that it is read against the same peak.
    const gpuFields = s.gpu ? { variant: 'cublas', ...s.gpu } as const : {};
    const point = peerPoint(ctx, base, { ...fields, ...gpuFields, warmup: s.gpu ? warmup : Math.min(warmup, 1), repeats }, { library: s.library, code: s.code }, s.gpu ? 'gpu' : 'cpu');
    if (point) points.push(point);
  }
  return points;
}

// cuBLAS against the tiled kernel. Both run fp32 on the same FMA units: the lab asks cuBLAS for CUBLAS_COMPUTE_32F,
// which never uses the tensor cores (only tf32, fp16, bf16 and int8 do, as the dtypes lab shows).
// Which is faster is said only where the two medians' intervals separate.
function libraryText(ratio: number, cublasMs: number, tiledMs: number, order: Order): Message {
  const values = { cublas: num_.ms(cublasMs), tiled: num_.ms(tiledMs), sameUnits: m('sameUnits') };
  if (order === 'indistinguishable') return m('libraryLevel', values);
  if (order === 'slower') return m('tiledFaster', { ...values, ratio: num_.times(1 / ratio) });
  return m(ratio < 1.25 ? 'cublasClose' : 'cublasFaster', { ...values, ratio: num_.times(ratio) });
}

function analyze(points: readonly PointResult[]): LabAnalysis {
  const a: LabAnalysis = { summary: {}, findings: [] };
  const cpu = find(points, 'cpu-blas');
  const cpuMs = okMedian(cpu);
  a.summary['cpu.ms'] = cpuMs;
  a.summary['cpu.gflops'] = cpu?.gflops ?? null;
  if (cpu && cpuMs !== null) {
    const values = { cpu: ownBlasName(cpu), threads: cpu.threads ?? '?', time: num_.ms(cpuMs), rate: num_.rate(cpu.gflops ?? 0, 'GFLOP/s') };
    a.findings.push(withInterval(finding('cpu-rate', m('cpuRate', values), cpu.gflops, 'GFLOP/s'), rateInterval(cpu, 'gflops')));
  }
  // The GPU's speedups over the fastest CPU series measured, GPU Lab's BLAS or the notebook's NumPy, named, and over
  // the other beside it (DESIGN §10, "Baselines"); the summary keeps the speedup over GPU Lab's BLAS.
  const side = cpuSide(points, CPU_SERIES, (key) => (key === 'cpu-blas' ? ownBlasName(cpu) : seriesName(key)));
  for (const s of GPU_SERIES) {
    const p = find(points, s.series);
    a.summary[`${s.series}.ms`] = okMedian(p);
    a.summary[`${s.series}.speedupVsCpu`] = speedup(cpu, p);
    a.summary[`${s.series}.gflops`] = p?.gflops ?? null;
    const base = side ? find(points, side.key) : undefined;
    const x = speedup(base, p);
    const ratio = speedupValue(base, p);
    if (side && p && x !== null && ratio !== null) {
      // A rate and a share of the point's peak only where the time is the product's: with the copies it is mostly the
      // bus's, and the point has neither (plan-helpers.ts, unratedWhy).
      const share = shareOfPeak(p);
      const peak = share !== null ? m('peakShare', { share: num_.percent(share) }) : '';
      const beside = side.others.flatMap((o) => {
        const r = speedupValue(find(points, o.key), p);
        return r === null ? [] : [m('speedupBeside', { ratio: r, cpu: o.name })];
      });
      const values = { series: seriesName(s.series), time: num_.ms(okMedian(p) ?? 0), ratio, cpu: side.name, beside: beside[0] ?? '' };
      const text = p.gflops === null ? m('speedupNoRate', values) : m('speedup', { ...values, rate: num_.rate(p.gflops, 'GFLOP/s'), peak });
      a.findings.push(withInterval(finding(`${s.series}-speedup`, text, x, 'times'), speedupInterval(base, p)));
    }
  }
  for (const [copied, kept] of COPY_PAIRS) {
    const transfers = find(points, copied);
    const withCopies = okMedian(transfers);
    const resident = okMedian(find(points, kept));
    if (!transfers || withCopies === null || resident === null || withCopies <= 0) continue;
    const share = Math.max(0, (withCopies - resident) / withCopies);
    a.summary.transferShare = share;
    // The copies' rate: A and B over, C back (3·N²·4 bytes) in the difference of the two times; GB/s = bytes / (ms · 10⁶).
    // On WebGPU they are writeBuffer's and a mapped buffer's (webgpu/backend.ts), not cudaMemcpy's.
    const copyMs = withCopies - resident;
    const copyValues = { time: num_.ms(copyMs), size: num_.bytes(transfers.work.bytes), rate: num_.rate(transfers.work.bytes / (copyMs * 1e6), 'GB/s') };
    const copies = copyMs > 0 ? m(isWebgpuDevice(transfers.device) ? 'copiesWebgpu' : 'copies', copyValues) : '';
    const values = { share: num_.percent(share), withCopies: num_.ms(withCopies), resident: num_.ms(resident), copies };
    // A share of the copies only where the resident time's interval lies below the time with them.
    const eCopies = estimateOf(transfers);
    const eResident = estimateOf(find(points, kept));
    const separate = eCopies && eResident ? compareTimes(eResident, eCopies) === 'faster' : false;
    a.findings.push(finding('transfer-share', m(separate ? 'transferShare' : 'transferShareLevel', values), share, 'share'));
    break;
  }
  const naive = find(points, 'gpu-naive');
  const tiled = find(points, 'gpu-tiled');
  const tiledOverNaive = speedup(naive, tiled);
  const eTiled = estimateOf(tiled);
  const eNaive = estimateOf(naive);
  if (tiledOverNaive !== null && eTiled && eNaive) {
    a.summary.tiledOverNaive = tiledOverNaive;
    // Faster, slower or level only as far as the two medians' intervals tell; the reuse is said as the reason only
    // where the tiled kernel is faster. The WGSL kernel's tiles are smaller than the CUDA kernel's
    // (shaders/wgsl/gemm.wgsl says why), so is its reuse.
    const order = compareTimes(eTiled, eNaive);
    const values = { tiled: num_.ms(eTiled.median), ratio: num_.times(order === 'slower' ? 1 / tiledOverNaive : tiledOverNaive), naive: num_.ms(eNaive.median) };
    const faster = tiled && isWebgpuDevice(tiled.device) ? 'tilingWgsl' : 'tiling';
    const key = order === 'faster' ? faster : order === 'slower' ? 'tilingSlower' : 'tilingLevel';
    a.findings.push(finding('tiling', m(key, values), tiledOverNaive, 'times', order === 'faster' ? 'info' : 'warning'));
  }
  const cublas = find(points, 'gpu-cublas');
  const cublasOverTiled = speedup(tiled, cublas);
  if (cublasOverTiled !== null) {
    a.summary.cublasOverTiled = cublasOverTiled;
    const ec = estimateOf(cublas);
    const et = estimateOf(tiled);
    const order = ec && et ? compareTimes(ec, et) : 'indistinguishable';
    a.findings.push(finding('library', libraryText(cublasOverTiled, okMedian(cublas) ?? 0, okMedian(tiled) ?? 0, order), cublasOverTiled, 'times'));
  }
  for (const s of PEER_SERIES) {
    const agreement = agreementFinding(`${s.series}-agreement`, find(points, s.series), find(points, s.ours), { peer: seriesName(s.series), ours: seriesName(s.ours) });
    if (agreement) a.findings.push(agreement);
  }
  return a;
}

export const matmulLab: Lab = {
  descriptor: {
    id: 'matmul',
    ...aboutLab(LAB),
    parameters: [
      { kind: 'integer', name: 'n', ...paramWords(LAB, 'n'), unit: '', default: 7000, min: 16, max: LIMITS.matrixOrder },
      repeatsParam(10),
      { kind: 'integer', name: 'cpuRepeats', ...paramWords(LAB, 'cpuRepeats'), unit: 'samples', default: 3, min: 1, max: 100 },
      warmupParam(1),
    ],
    presets: [
      { id: 'seed-000', ...presetWords(LAB, 'seed-000'), params: {} },
      { id: 'laptop', ...presetWords(LAB, 'laptop'), params: { n: 2000 } },
    ],
    kernels: [
      { kind: 'library', file: 'OpenBLAS', functions: ['cblas_sgemm'], fallback: 'native/cpu/gemm.cc' },
      { kind: 'cpu', file: 'native/cpu/gemm.cc', functions: ['BlockedGemm'] },
      { kind: 'library', file: 'cuBLAS', functions: ['cublasGemmEx (CUBLAS_COMPUTE_32F)'] },
      { kind: 'cuda', file: 'shaders/cuda/sgemm.cu', functions: ['SgemmNaiveKernel', 'sgemm'] },
      { kind: 'wgsl', file: 'shaders/wgsl/gemm.wgsl', functions: ['naive', 'tiled'] },
      { kind: 'python', file: 'python/gpu_lab_peers/labs/matmul.py', functions: ['numpy_matmul', 'torch_resident', 'torch_copies'] },
    ],
    series: [
      { key: 'cpu-blas', label: SERIES['cpu-blas'], deviceKind: 'cpu' },
      ...GPU_SERIES.map((s): SeriesDescriptor => ({ key: s.series, label: s.label, deviceKind: 'cuda', baseline: 'cpu-blas', ...(s.webgpu ? { webgpuOnly: true as const, family: 'gpu-tiled' } : {}) })),
      // Each peer in the hue of the engine's series it is compared with.
      ...PEER_SERIES.map((s): SeriesDescriptor => ({ key: s.series, label: SERIES[s.series], deviceKind: s.gpu ? 'cuda' : 'cpu', baseline: 'cpu-blas', peer: s.library, family: s.ours })),
    ],
    headline: ['gpu-transfers-speedup', 'gpu-cublas-speedup', 'gpu-tiled-transfers-speedup', 'cpu-rate'],
    chart: { x: { quantity: 'category', log: false }, y: { quantity: 'ms', log: true } },
  },
  plan,
  analyze,
};
