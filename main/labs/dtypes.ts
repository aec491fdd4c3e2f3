// Lab dtypes: bytes per element and the footprint of an N×N tensor for fp64, fp32, tf32, fp16, bf16 and int8, then
// GEMM throughput and relative error against a float64 reference for each.
import type { DeviceSummary } from '../common/devices.ts';
import { LIMITS } from '../common/measurement.ts';
import type { GemmDtype } from '../common/measurement.ts';
import type { ParamValues } from '../common/lab-descriptor.ts';
import { msg, n as num_, type Message } from '../common/pure/message.ts';
import { shareOfPeak, type PointResult } from '../common/run-record.ts';
import { isWebgpuDevice } from '../common/measurement.ts';
import { agreementFinding, finding, rateInterval, speedup, speedupInterval, withInterval } from './analysis.ts';
import { aboutLab, paramWords, presetWords } from './lab-words.ts';
import type { Lab, LabAnalysis, PlanContext, PlannedPoint } from './lab.ts';
import { num, strs } from './lab.ts';
import { labText as labTextEn } from '../common/pure/i18n/en/lab-text.ts';
import { CPU_GFLOPS_GUESS, GPU_GFLOPS_GUESS, cpuPoint, gemmWork, gpuPoint, peerPoint, pointName, repeatsParam, repeatsWithin, waivedFor, warmupParam } from './plan-helpers.ts';

const DTYPES: readonly GemmDtype[] = ['fp64', 'fp32', 'tf32', 'fp16', 'bf16', 'int8'];
// tf32 is stored as fp32: only the tensor cores read 10 bits of its mantissa.
export const STORED_BYTES: Record<GemmDtype, number> = { fp64: 8, fp32: 4, tf32: 4, fp16: 2, bf16: 2, int8: 1 };
// C's elements: the inputs' type, but int8 products are summed and written as int32 (native/cuda/ops_gemm.cu).
const OUTPUT_BYTES: Record<GemmDtype, number> = { ...STORED_BYTES, int8: 4 };
const CPU_DTYPES = new Set<GemmDtype>(['fp64', 'fp32']);

const LAB = 'dtypes';
const SERIES = labTextEn[LAB].series;
const m = (key: keyof (typeof labTextEn)[typeof LAB]['findings'], values?: Parameters<typeof msg>[1]): Message => msg(`${LAB}.findings.${key}`, values);

function plan(params: ParamValues, ctx: PlanContext): PlannedPoint[] {
  const n = num(params, 'n');
  const repeats = num(params, 'repeats');
  const warmup = num(params, 'warmup');
  const points: PlannedPoint[] = [];
  const dtypes = strs(params, 'dtypes') as GemmDtype[];
  for (const dtype of dtypes.filter((d) => CPU_DTYPES.has(d))) {
    const work = gemmWork(n, n, n, STORED_BYTES[dtype]);
    const sample = work.flops / (CPU_GFLOPS_GUESS * (dtype === 'fp64' ? 0.5 : 1) * 1e9);
    points.push(
      cpuPoint(
        { key: `cpu-${dtype}`, series: 'cpu', name: msg('common.run.pointOf', { series: pointName(LAB, 'cpu'), what: dtype }), x: null, work, sampleSeconds: sample },
        { op: 'gemm', dtype: dtype as 'fp32' | 'fp64', variant: 'blas', m: n, n, k: n, warmup: Math.min(warmup, 1), repeats: repeatsWithin(4, sample, 2, repeats), seed: n },
        8 * n * 1e-6,
        ctx.cpu,
      ),
    );
  }
  // WebGPU has no cuBLAS: there the tiled WGSL kernel runs f32 and f16, and the types WGSL lacks are waived with the
  // reason (plan-helpers.ts).
  const variant = ctx.gpu?.kind === 'webgpu' ? 'tiled' : 'cublas';
  for (const dtype of dtypes) {
    const work = gemmWork(n, n, n, STORED_BYTES[dtype], OUTPUT_BYTES[dtype]);
    points.push(
      gpuPoint(
        ctx,
        { key: `gpu-${dtype}`, series: 'gpu', name: msg('common.run.pointOf', { series: pointName(LAB, 'gpu'), what: dtype }), x: null, work, sampleSeconds: work.flops / (GPU_GFLOPS_GUESS * 1e9) },
        { op: 'gemm', dtype, variant, m: n, n, k: n, warmup, repeats, seed: n },
      ),
    );
  }
  // The same GEMMs as seed 003's notebook writes them in PyTorch, on the same inputs.
  for (const dtype of dtypes) {
    const work = gemmWork(n, n, n, STORED_BYTES[dtype], OUTPUT_BYTES[dtype]);
    const base = { key: `torch-${dtype}`, series: 'torch', name: msg('common.run.pointOf', { series: pointName(LAB, 'torch'), what: dtype }), x: null, work, sampleSeconds: work.flops / (GPU_GFLOPS_GUESS * 1e9) };
    const point = peerPoint(ctx, base, { op: 'gemm', dtype, variant: 'cublas', m: n, n, k: n, warmup, repeats, seed: n }, { library: 'torch', code: `torch-${dtype}` }, 'gpu');
    if (!point) continue;
    points.push(point.waived === null && dtype === 'int8' && !intMmTakes(n) ? waivedFor(point, msg('reasons.int8Shape', { n })) : point);
  }
  return points;
}

// PyTorch's int8 GEMM (torch._int_mm) takes only an A of more than 16 rows and a K and an N that are multiples of 8.
export function intMmTakes(n: number): boolean {
  return n > 16 && n % 8 === 0;
}

// A relative error with two significant digits in scientific notation ("2.5e-4", "1.0e-7"): the message carries its
// digits, so that each language writes its own decimal separator.
function scientific(x: number): Message | string {
  const parts = /^(-?\d)\.(\d)e([+-]\d+)$/.exec(x.toExponential(1));
  if (!parts) return x.toExponential(1);
  return m('scientific', { whole: parts[1] ?? '', tenth: parts[2] ?? '', exponent: parts[3] ?? '' });
}

function errorText(err: number | null | undefined): Message | string {
  if (err === null || err === undefined) return m('errorUnknown');
  // int8 products summed in int32 are exact until the sums overflow.
  return err === 0 ? m('errorExact') : scientific(err);
}

// "128 MiB in fp64, 64 MiB in fp32, …": each item nests the rest of the list.
function footprintList(n: number, dtypes: readonly GemmDtype[]): Message | string {
  const items = dtypes.map((d) => m('footprintItem', { bytes: num_.bytes(n * n * STORED_BYTES[d]), dtype: d }));
  return items.reduceRight<Message | string>((rest, item) => (rest === '' ? item : m('footprintList', { item, rest })), '');
}

// Twice the numbers per SIMD register explains an fp32/fp64 ratio only where the ratio is near 2 (1.6 to 2.2: more is
// not SIMD width) and the GEMM is compute-bound on this CPU: its arithmetic intensity (FLOPs per byte it must move)
// above the CPU's ridge point, its fp64 peak FLOP/s over its memory bandwidth. Without those peaks no cause is said.
function simdExplains(ratio: number, p: PointResult | undefined, cpu: DeviceSummary | null | undefined): boolean {
  if (ratio < 1.6 || ratio > 2.2 || !p || p.work.bytes <= 0) return false;
  const peak = cpu?.peakGflopsFp64;
  const bandwidth = cpu?.peakMemoryGBps;
  if (!peak || !bandwidth) return false;
  return p.work.flops / p.work.bytes > peak / bandwidth;
}

function analyze(points: readonly PointResult[], params: ParamValues, gpu: DeviceSummary | null, cpu?: DeviceSummary | null): LabAnalysis {
  const n = num(params, 'n');
  const a: LabAnalysis = { summary: {}, findings: [] };
  const dtypes = strs(params, 'dtypes') as GemmDtype[];
  for (const d of dtypes) a.summary[`${d}.footprintBytes`] = n * n * STORED_BYTES[d];
  a.findings.push(
    // Counted, not measured: the value is exact.
    withInterval(finding('footprint', m('footprint', { size: n, list: footprintList(n, dtypes) }), n * n * 4, 'bytes'), { low: n * n * 4, high: n * n * 4 }),
  );
  for (const side of ['cpu', 'gpu'] as const) {
    for (const d of dtypes) {
      const p = points.find((q) => q.key === `${side}-${d}`);
      if (!p || p.status !== 'ok') continue;
      a.summary[`${side}.${d}.gflops`] = p.gflops;
      a.summary[`${side}.${d}.relativeError`] = p.verification?.relativeError ?? null;
    }
  }
  const cpu32 = points.find((p) => p.key === 'cpu-fp32');
  const cpu64 = points.find((p) => p.key === 'cpu-fp64');
  const cpuRatio = speedup(cpu64, cpu32);
  if (cpuRatio !== null) {
    const why = simdExplains(cpuRatio, cpu64, cpu) ? m('cpuSimd') : '';
    const values = { ratio: num_.times(cpuRatio), fp32: num_.rate(cpu32?.gflops ?? 0, 'GFLOP/s'), fp64: num_.rate(cpu64?.gflops ?? 0, 'GFLOP/s'), why };
    a.findings.push(withInterval(finding('cpu-fp64', m('cpuFp64', values), cpuRatio, 'times'), speedupInterval(cpu64, cpu32)));
  }
  const gpu32 = points.find((p) => p.key === 'gpu-fp32');
  if (gpu32?.status === 'ok' && gpu32.gflops) {
    // Read against the peak the point carries (common/pure/gpu-peaks.ts: fp32 GEMM without TF32, the fp32 units).
    const share32 = shareOfPeak(gpu32);
    const peak = share32 !== null && gpu32.peak ? m(gpu32.peak.source === 'datasheet' ? 'gpuFp32PeakDatasheet' : 'gpuFp32Peak', { share: num_.percent(share32), peak: num_.rate(gpu32.peak.value, gpu32.peak.unit) }) : '';
    const values = { rate: num_.rate(gpu32.gflops, 'GFLOP/s'), peak, error: errorText(gpu32.verification?.relativeError) };
    a.findings.push(withInterval(finding('gpu-fp32', m('gpuFp32', values), gpu32.gflops, 'GFLOP/s'), rateInterval(gpu32, 'gflops')));
  }
  for (const d of dtypes) {
    if (d === 'fp32') continue;
    const p = points.find((q) => q.key === `gpu-${d}`);
    const x = speedup(gpu32, p);
    if (!p || x === null) continue;
    // int8 products are integer operations: OP/s, not FLOP/s.
    const rate = num_.rate(p.gflops ?? 0, d === 'int8' ? 'GOP/s' : 'GFLOP/s');
    // Faster than the fp64 units' peak (from the device's attributes) is only possible on fp64 tensor cores.
    const fp64Peak = gpu?.peakGflopsFp64;
    const tensorCores = d === 'fp64' && fp64Peak && (p.gflops ?? 0) > 1.05 * fp64Peak ? m('fp64TensorCores', { peak: num_.rate(fp64Peak, 'GFLOP/s') }) : '';
    // The share of the peak the point is read against, named by which units give it; none where the table has none.
    const share = shareOfPeak(p);
    const units = p.peak?.name.endsWith('-tensor') ? 'tensorPeak' : 'unitsPeak';
    const peak = share !== null && p.peak ? m(p.peak.source === 'datasheet' ? `${units}Datasheet` : units, { share: num_.percent(share), peak: num_.rate(p.peak.value, p.peak.unit), dtype: d }) : '';
    const values = { dtype: d, rate, peak, ratio: num_.times(x), error: errorText(p.verification?.relativeError), tensorCores };
    a.findings.push(withInterval(finding(`gpu-${d}`, m('gpuType', values), x, 'times'), speedupInterval(gpu32, p)));
  }
  if (points.some((p) => p.series === 'gpu' && p.status === 'ok' && isWebgpuDevice(p.device))) a.findings.push(finding('webgpu-types', m('webgpuTypes')));
  for (const d of dtypes) {
    const names = { peer: msg('common.run.pointOf', { series: msg(`${LAB}.series.torch`), what: d }), ours: msg('common.run.pointOf', { series: msg(`${LAB}.series.gpu`), what: d }) };
    const f = agreementFinding(`torch-${d}-agreement`, points.find((p) => p.key === `torch-${d}`), points.find((p) => p.key === `gpu-${d}`), names);
    if (f) a.findings.push(f);
  }
  for (const p of points) {
    const err = p.verification?.relativeError;
    const tolerance = p.verification?.tolerance;
    if (p.status === 'ok' && err !== null && err !== undefined && tolerance !== undefined && p.key.startsWith('cpu-')) {
      const values = { dtype: p.key.slice('cpu-'.length), error: scientific(err), tolerance: scientific(tolerance) };
      a.findings.push(finding(`${p.key}-error`, m('cpuError', values), err, 'none'));
    }
  }
  return a;
}

export const dtypesLab: Lab = {
  descriptor: {
    id: 'dtypes',
    ...aboutLab(LAB),
    parameters: [
      { kind: 'integer', name: 'n', ...paramWords(LAB, 'n'), unit: '', default: 4096, min: 16, max: LIMITS.matrixOrder },
      { kind: 'choice-list', name: 'dtypes', ...paramWords(LAB, 'dtypes'), unit: '', default: [...DTYPES], choices: [...DTYPES] },
      repeatsParam(10),
      warmupParam(1),
    ],
    presets: [
      { id: 'seed-003', ...presetWords(LAB, 'seed-003'), params: {} },
      { id: 'quick', ...presetWords(LAB, 'quick'), params: { n: 1024 } },
    ],
    kernels: [
      { kind: 'library', file: 'OpenBLAS', functions: ['cblas_dgemm', 'cblas_sgemm'], fallback: 'native/cpu/gemm.cc' },
      { kind: 'cpu', file: 'native/cpu/gemm.cc', functions: ['BlockedGemm'] },
      { kind: 'library', file: 'cuBLAS / cuBLASLt', functions: ['cublasGemmEx'] },
      { kind: 'wgsl', file: 'shaders/wgsl/gemm.wgsl', functions: ['tiled'] },
      { kind: 'python', file: 'python/gpu_lab_peers/labs/matmul.py', functions: ['_per_dtype', '_on_gpu'] },
    ],
    series: [
      { key: 'cpu', label: SERIES.cpu, deviceKind: 'cpu' },
      { key: 'gpu', label: SERIES.gpu, deviceKind: 'cuda', baseline: 'cpu' },
      // Seed 003 lists the types but times no GEMM in them: PyTorch's, torch._int_mm included, are GPU Lab's addition.
      { key: 'torch', label: SERIES.torch, deviceKind: 'cuda', baseline: 'cpu', peer: 'torch', addition: true, family: 'gpu' },
    ],
    headline: ['gpu-fp16', 'gpu-fp32', 'cpu-fp64', 'footprint'],
    chart: { x: { quantity: 'category', log: false }, y: { quantity: 'TFLOP/s', log: true } },
  },
  plan,
  analyze,
};
