// Lab vector-function: z = a·x² + b·y + c over 5 000 000 float64 (a = 3.5, b = 2.8, c = 10), the seed notebook's
// exercise: a plain loop on one core, the loop on every core, the GPU with copies, and on the GPU resident, three
// separate passes against one fused kernel.
import type { DeviceSummary } from '../common/devices.ts';
import type { ParamValues, SeriesDescriptor } from '../common/lab-descriptor.ts';
import type { Clock, VectorFunctionVariant } from '../common/measurement.ts';
import type { PeerLibrary } from '../common/peer-protocol.ts';
import { msg, n as num_, type Message } from '../common/pure/message.ts';
import { shareOfPeak, type PointResult, type PointWork } from '../common/run-record.ts';
import { agreementFinding, cacheClause, find, finding, okMedian, speedup, speedupInterval, speedupValue, withInterval } from './analysis.ts';
import { aboutLab, paramWords, presetWords } from './lab-words.ts';
import type { Lab, LabAnalysis, PlanContext, PlannedPoint } from './lab.ts';
import { num } from './lab.ts';
import { labText as labTextEn } from '../common/pure/i18n/en/lab-text.ts';
import { BUS_GBPS_GUESS, CPU_GBPS_GUESS, GPU_GBPS_GUESS, MIN_SAMPLE_MS, cpuPoint, gpuPoint, peerPoint, pointName, repeatsParam, warmupParam } from './plan-helpers.ts';
import { compareTimes, estimateOf } from '../common/pure/claims.ts';

const LAB = 'vector-function';
const LABELS = labTextEn[LAB].series;
const SERIES = [
  { series: 'cpu-single', label: LABELS['cpu-single'], variant: 'single', gpu: false, path: 'resident' },
  { series: 'cpu-threads', label: LABELS['cpu-threads'], variant: 'threads', gpu: false, path: 'resident' },
  { series: 'gpu-transfers', label: LABELS['gpu-transfers'], variant: 'fused', gpu: true, path: 'with-copies' },
  { series: 'gpu-unfused', label: LABELS['gpu-unfused'], variant: 'unfused', gpu: true, path: 'resident' },
  { series: 'gpu-fused', label: LABELS['gpu-fused'], variant: 'fused', gpu: true, path: 'resident' },
] as const;

const m = (key: keyof (typeof labTextEn)[typeof LAB]['findings'], values?: Parameters<typeof msg>[1]): Message => msg(`${LAB}.findings.${key}`, values);

// Per element: x·x, a·(x²), b·y and two additions = 5 FLOPs; the fewest bytes read x and y and write z: 3 × 8.
const FUSED_BYTES_PER_ELEMENT = 24;
// Three passes (shaders/cuda/vector_function.cu): t = a·x·x reads x, writes t (16); t = t + b·y reads t and y, writes
// t (24); z = t + c reads t, writes z (16).
const UNFUSED_BYTES_PER_ELEMENT = 56;

// The course's own code, timed beside the engine's where the run asks for it (python/gpu_lab_peers/labs/
// vector_function.py): NumPy as seed 001's notebook writes it, with its temporaries. Its bytes are those the
// notebook's expression really moves: x**2, a·(…), b·y and their sum are arrays of n elements, each written and read
// again, 11 accesses of 8 bytes per element (88) where one loop makes 3 (24).
// Then Numba's compiled loop, CuPy on the GPU as written and with its copies, and Numba's CUDA ufunc on the GPU's
// arrays and on the host's (its copies automatic), each of these two read with the notebook's three clocks: CUDA
// events around one call (cupyx's benchmark), a synchronise read with time.time() (its timing_numba_GPU), and events
// around a loop of calls (its timing_numba_GPU2, ten calls there; here as many as fill MIN_SAMPLE_MS).
// `gpu`: the clock of a GPU series (events, or the host's after a synchronise), null for a CPU series; `addition`: not in the notebook
// (Numba's parallel loop, cupy.fuse), GPU Lab's own beside it; `like`: the engine's series doing the same work the
// same way (one core or all, in passes or fused, with the copies), whose hue it is drawn in.
const NUMPY_BYTES_PER_ELEMENT = 8 * (2 + 2 * 4 + 1);
interface PeerSeries {
  series: keyof typeof LABELS;
  library: PeerLibrary;
  code: string;
  gpu: Extract<Clock, 'events' | 'host'> | null;
  bytes: number;
  path?: 'with-copies';
  timeTime?: true;
  loop?: true;
  addition?: true;
  like: string;
}
const PEER_SERIES: readonly PeerSeries[] = [
  { series: 'numpy-notebook', library: 'numpy', code: 'numpy-notebook', gpu: null, bytes: NUMPY_BYTES_PER_ELEMENT, like: 'cpu-single' },
  { series: 'numba-njit', library: 'numba', code: 'numba-njit', gpu: null, bytes: FUSED_BYTES_PER_ELEMENT, like: 'cpu-single' },
  { series: 'numba-parallel', library: 'numba', code: 'numba-parallel', gpu: null, bytes: FUSED_BYTES_PER_ELEMENT, addition: true, like: 'cpu-threads' },
  { series: 'cupy-notebook', library: 'cupy', code: 'cupy-notebook', gpu: 'events', bytes: NUMPY_BYTES_PER_ELEMENT, like: 'gpu-unfused' },
  { series: 'cupy-fused', library: 'cupy', code: 'cupy-fused', gpu: 'events', bytes: FUSED_BYTES_PER_ELEMENT, addition: true, like: 'gpu-fused' },
  { series: 'cupy-copies', library: 'cupy', code: 'cupy-copies', gpu: 'host', bytes: NUMPY_BYTES_PER_ELEMENT, path: 'with-copies', like: 'gpu-transfers' },
  { series: 'numba-cuda-vectorize', library: 'numba', code: 'numba-cuda-vectorize', gpu: 'events', bytes: FUSED_BYTES_PER_ELEMENT, like: 'gpu-fused' },
  { series: 'numba-cuda-vectorize-time', library: 'numba', code: 'numba-cuda-vectorize', gpu: 'host', bytes: FUSED_BYTES_PER_ELEMENT, timeTime: true, like: 'gpu-fused' },
  { series: 'numba-cuda-vectorize-loop', library: 'numba', code: 'numba-cuda-vectorize', gpu: 'events', bytes: FUSED_BYTES_PER_ELEMENT, loop: true, like: 'gpu-fused' },
  { series: 'numba-cuda-copies', library: 'numba', code: 'numba-cuda-copies', gpu: 'events', bytes: FUSED_BYTES_PER_ELEMENT, path: 'with-copies', like: 'gpu-transfers' },
  { series: 'numba-cuda-copies-time', library: 'numba', code: 'numba-cuda-copies', gpu: 'host', bytes: FUSED_BYTES_PER_ELEMENT, path: 'with-copies', timeTime: true, like: 'gpu-transfers' },
  { series: 'numba-cuda-copies-loop', library: 'numba', code: 'numba-cuda-copies', gpu: 'events', bytes: FUSED_BYTES_PER_ELEMENT, path: 'with-copies', loop: true, like: 'gpu-transfers' },
];
// Each series counts the bytes its own kernels move, so that its GB/s is what the memory delivered: the three
// passes move 56 bytes per element, the fused kernel and the CPU loops 24, the copies 24 across the bus.
// In float32 (WebGPU's: WGSL has no f64) every access is half as wide.
export function vectorFunctionWork(n: number, variant: VectorFunctionVariant = 'fused', dtype: 'fp64' | 'fp32' = 'fp64'): PointWork {
  const bytes = (variant === 'unfused' ? UNFUSED_BYTES_PER_ELEMENT : FUSED_BYTES_PER_ELEMENT) / (dtype === 'fp32' ? 2 : 1);
  return { flops: 5 * n, bytes: bytes * n, elements: n };
}

function plan(params: ParamValues, ctx: PlanContext): PlannedPoint[] {
  const n = num(params, 'elements');
  const fields = { elements: n, a: num(params, 'a'), b: num(params, 'b'), c: num(params, 'c'), warmup: num(params, 'warmup'), repeats: num(params, 'repeats'), seed: 5 };
  // On a WebGPU adapter the GPU series run in float32: WGSL has no f64 (a finding says so).
  const gpuDtype = ctx.gpu?.kind === 'webgpu' ? 'fp32' : 'fp64';
  const engine = SERIES.map((s) => {
    const work = vectorFunctionWork(n, s.variant, s.gpu ? gpuDtype : 'fp64');
    const base = { key: s.series, series: s.series, name: pointName(LAB, s.series), x: null, work };
    if (!s.gpu) {
      const sample = work.bytes / (CPU_GBPS_GUESS * (s.variant === 'single' ? 0.5 : 1) * 1e9);
      return cpuPoint({ ...base, sampleSeconds: sample }, { op: 'vector-function', variant: s.variant, ...fields }, n * 4e-8, ctx.cpu);
    }
    const sample = s.path === 'with-copies' ? work.bytes / (BUS_GBPS_GUESS * 1e9) : work.bytes / (GPU_GBPS_GUESS * 1e9);
    return gpuPoint(ctx, { ...base, sampleSeconds: sample }, { op: 'vector-function', variant: s.variant, path: s.path, dtype: gpuDtype, ...(s.path === 'with-copies' ? { clock: 'host' as const } : {}), ...fields });
  });
  const peers = PEER_SERIES.flatMap((s) => {
    const work = { flops: 5 * n, bytes: s.bytes * n, elements: n };
    const rate = s.path === 'with-copies' ? BUS_GBPS_GUESS : s.gpu ? GPU_GBPS_GUESS : CPU_GBPS_GUESS * 0.5;
    const base = { key: s.series, series: s.series, name: pointName(LAB, s.series), x: null, work, sampleSeconds: work.bytes / (rate * 1e9) };
    const m = { op: 'vector-function', variant: s.gpu ? 'fused' : 'single', ...fields, ...(s.path ? { path: s.path } : {}), ...(s.loop ? { minSampleMs: MIN_SAMPLE_MS } : {}) } as const;
    const point = peerPoint(ctx, base, { ...m, ...(s.gpu ? { clock: s.gpu } : {}) }, { library: s.library, code: s.code, ...(s.timeTime ? { timeTime: true } : {}) }, s.gpu ? 'gpu' : 'cpu');
    return point ? [point] : [];
  });
  return [...engine, ...peers];
}

function analyze(points: readonly PointResult[], _params: ParamValues, gpu: DeviceSummary | null, cpu?: DeviceSummary | null): LabAnalysis {
  const a: LabAnalysis = { summary: {}, findings: [] };
  for (const s of SERIES) {
    const p = find(points, s.series);
    a.summary[`${s.series}.ms`] = okMedian(p);
    a.summary[`${s.series}.gbps`] = p?.gbps ?? null;
  }
  const single = find(points, 'cpu-single');
  const threads = find(points, 'cpu-threads');
  const x = speedup(single, threads);
  const times = { threads: threads?.threads ?? '?', many: num_.ms(okMedian(threads) ?? 0), one: num_.ms(okMedian(single) ?? 0) };
  // All threads against one: faster or slower only where the medians' intervals separate.
  const eOne = estimateOf(single);
  const eAll = estimateOf(threads);
  const threadsOrder = eOne && eAll ? compareTimes(eAll, eOne) : null;
  const threadsInterval = speedupInterval(single, threads);
  if (x !== null && threadsOrder === 'faster') {
    a.findings.push(withInterval(finding('threads', m('threadsScale', { ...times, ratio: speedupValue(single, threads) ?? num_.times(x), rate: num_.rate(threads?.gbps ?? 0, 'GB/s'), cache: cacheClause(threads, cpu) }), x, 'times'), threadsInterval));
  } else if (x !== null && threadsOrder === 'slower') {
    a.findings.push(withInterval(finding('threads', m('threadsSlower', { ...times, ratio: num_.times(1 / x) }), x, 'times', 'warning'), threadsInterval));
  } else if (x !== null && threadsOrder === 'indistinguishable') {
    a.findings.push(withInterval(finding('threads', m('threadsFlat', { ...times, rate: num_.rate(single?.gbps ?? 0, 'GB/s') }), x, 'times'), threadsInterval));
  }
  // The notebook's NumPy against the engine's one-thread loop, as far as their intervals tell them apart.
  const numpy = find(points, 'numpy-notebook');
  const eNumpy = estimateOf(numpy);
  const numpyMs = okMedian(numpy);
  const oneMs = okMedian(single);
  if (numpy && eNumpy && eOne && numpyMs !== null && oneMs !== null) {
    const order = compareTimes(eNumpy, eOne);
    const ratio = order === 'faster' ? oneMs / numpyMs : numpyMs / oneMs;
    const values = { numpy: num_.ms(numpyMs), one: num_.ms(oneMs), ratio: num_.times(ratio), numpyBytes: NUMPY_BYTES_PER_ELEMENT, loopBytes: FUSED_BYTES_PER_ELEMENT };
    const key = order === 'slower' ? 'numpySlower' : order === 'faster' ? 'numpyFaster' : 'numpyLevel';
    a.findings.push(finding('numpy-vs-loop', m(key, values), numpyMs / oneMs, 'times'));
  }
  // The peers that do the same work as one of GPU Lab's series: Numba's loops against the engine's, the fused CuPy
  // kernel against the fused kernel, CuPy with its copies against the fused kernel with its copies.
  for (const [peer, ours] of [['numba-njit', 'cpu-single'], ['numba-parallel', 'cpu-threads'], ['cupy-fused', 'gpu-fused'], ['cupy-copies', 'gpu-transfers']] as const) {
    const agreement = agreementFinding(`${peer}-agreement`, find(points, peer), find(points, ours), { peer: msg(`${LAB}.series.${peer}`), ours: msg(`${LAB}.series.${ours}`) });
    if (agreement) a.findings.push(agreement);
  }
  const unfused = find(points, 'gpu-unfused');
  const fused = find(points, 'gpu-fused');
  // The bytes per element each GPU point counted: 24 and 56 in float64, half that in WebGPU's float32.
  const perElement = (p: PointResult | undefined, fallback: number): number => (p && p.work.elements ? p.work.bytes / p.work.elements : fallback);
  const unfusedBytes = perElement(unfused, UNFUSED_BYTES_PER_ELEMENT);
  const fusedBytes = perElement(fused, FUSED_BYTES_PER_ELEMENT);
  if (gpu?.kind === 'webgpu' && (fused?.status === 'ok' || unfused?.status === 'ok')) {
    a.findings.push(finding('webgpu-f32', m('webgpuF32', { fusedBytes, unfusedBytes }), fusedBytes, 'bytes'));
  }
  const fusion = speedup(unfused, fused);
  if (fusion !== null) {
    a.summary.fusionSpeedup = fusion;
    const values = {
      ratio: num_.times(fusion),
      fused: num_.ms(okMedian(fused) ?? 0),
      unfused: num_.ms(okMedian(unfused) ?? 0),
      unfusedBytes,
      fusedBytes,
      bytesRatio: num_.times(unfusedBytes / fusedBytes),
    };
    // Fusion pays only where the fused kernel's interval lies below the three passes'.
    const eFused = estimateOf(fused);
    const eUnfused = estimateOf(unfused);
    const gains = eFused && eUnfused ? compareTimes(eFused, eUnfused) === 'faster' : false;
    a.findings.push(withInterval(finding('fusion', m(gains ? 'fusion' : 'fusionLevel', values), fusion, 'times', gains ? 'info' : 'warning'), speedupInterval(unfused, fused)));
  }
  const fusedMs = okMedian(fused);
  // Read against the peak the point carries (common/pure/gpu-peaks.ts: DRAM bandwidth for an elementwise kernel).
  const fusedShare = fused ? shareOfPeak(fused) : null;
  if (fused?.gbps && fusedMs !== null && fusedShare !== null && fused.peak) {
    const share = fusedShare;
    a.summary.fusedShareOfPeakBandwidth = share;
    const values = { size: num_.bytes(fused.work.bytes), time: num_.ms(fusedMs), rate: num_.rate(fused.gbps, 'GB/s'), share: num_.percent(share), peak: num_.rate(fused.peak.value, 'GB/s') };
    a.findings.push(finding('bandwidth', m('bandwidth', values), share, 'share'));
  }
  const transfers = find(points, 'gpu-transfers');
  const withCopies = okMedian(transfers);
  if (transfers && withCopies !== null && fusedMs !== null && withCopies > 0) {
    const share = Math.max(0, (withCopies - fusedMs) / withCopies);
    a.summary.transferShare = share;
    // x and y over, z back: the same 24 bytes per element the kernel moves, now across the bus.
    const copyMs = withCopies - fusedMs;
    const copies = copyMs > 0 ? m('copies', { size: num_.bytes(transfers.work.bytes), time: num_.ms(copyMs), rate: num_.rate(transfers.work.bytes / (copyMs * 1e6), 'GB/s') }) : '';
    const values = { share: num_.percent(share), withCopies: num_.ms(withCopies), resident: num_.ms(fusedMs), copies };
    a.findings.push(finding('transfer-share', m('transferShare', values), share, 'share'));
    const vsCpu = speedup(threads, transfers);
    const cpuMs = okMedian(threads);
    if (vsCpu !== null && cpuMs !== null) {
      const values = { gpu: num_.ms(withCopies), cpu: num_.ms(cpuMs), ratio: num_.times(vsCpu) };
      const eGpu = estimateOf(transfers);
      const order = eGpu && eAll ? compareTimes(eGpu, eAll) : null;
      const key = order === 'slower' ? 'copiesSlower' : order === 'faster' ? 'copiesFaster' : 'copiesLevel';
      a.findings.push(withInterval(finding('copies-vs-cpu', m(key, values), vsCpu, 'times'), speedupInterval(threads, transfers)));
    }
  }
  return a;
}

export const vectorFunctionLab: Lab = {
  descriptor: {
    id: 'vector-function',
    ...aboutLab(LAB),
    parameters: [
      { kind: 'integer', name: 'elements', ...paramWords(LAB, 'elements'), unit: 'elements', default: 5_000_000, min: 1, max: 500_000_000 },
      { kind: 'number', name: 'a', ...paramWords(LAB, 'a'), unit: '', default: 3.5, min: -1e6, max: 1e6 },
      { kind: 'number', name: 'b', ...paramWords(LAB, 'b'), unit: '', default: 2.8, min: -1e6, max: 1e6 },
      { kind: 'number', name: 'c', ...paramWords(LAB, 'c'), unit: '', default: 10, min: -1e6, max: 1e6 },
      repeatsParam(20),
      warmupParam(2),
    ],
    presets: [
      { id: 'seed-001', ...presetWords(LAB, 'seed-001'), params: {} },
      { id: 'large', ...presetWords(LAB, 'large'), params: { elements: 50_000_000 } },
    ],
    kernels: [
      { kind: 'cpu', file: 'native/cpu/vector_function.cc', functions: ['VectorFunctionRange'] },
      { kind: 'cuda', file: 'shaders/cuda/vector_function.cu', functions: ['polynomial', 'ScaledSquareKernel', 'AddScaledKernel', 'AddConstantKernel'] },
      { kind: 'wgsl', file: 'shaders/wgsl/vector_function.wgsl', functions: ['fused', 'scaled_square', 'add_scaled', 'add_constant'] },
      { kind: 'python', file: 'python/gpu_lab_peers/labs/vector_function.py', functions: ['numpy_notebook', 'numba_njit', 'numba_parallel', 'cupy_notebook', 'cupy_fused', 'cupy_copies', 'numba_cuda_vectorize', 'numba_cuda_copies'] },
    ],
    // The GPU against every CPU thread, as the findings compare them; the threaded loop against one thread.
    series: [
      ...SERIES.map((s): SeriesDescriptor => ({
        key: s.series,
        label: s.label,
        deviceKind: s.gpu ? 'cuda' : 'cpu',
        ...(s.series === 'cpu-single' ? {} : { baseline: s.gpu ? 'cpu-threads' : 'cpu-single' }),
      })),
      ...PEER_SERIES.map((s): SeriesDescriptor => ({
        key: s.series,
        label: LABELS[s.series],
        deviceKind: s.gpu ? 'cuda' : 'cpu',
        baseline: s.gpu ? 'cpu-threads' : 'cpu-single',
        peer: s.library,
        ...(s.addition ? { addition: true } : {}),
        family: s.like,
      })),
    ],
    headline: ['fusion', 'copies-vs-cpu', 'threads'],
    chart: { x: { quantity: 'category', log: false }, y: { quantity: 'ms', log: true } },
  },
  plan,
  analyze,
};
