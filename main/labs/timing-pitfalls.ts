// Lab timing-pitfalls: the same work timed wrongly and rightly. A GPU GEMM timed without synchronising (the clock
// stops when the launch returns) against CUDA events; a cold first call against warmed calls, on the CPU and the
// GPU; one CPU thread against all of them. On a WebGPU adapter (no cuBLAS) the tiled WGSL GEMM in their place: the
// host clock stopped when submit() returns against stopped at onSubmittedWorkDone(), that against timestamp queries
// where the adapter has them, and a cold first dispatch (its pipeline made in the sample) against warmed ones.
import type { ParamValues } from '../common/lab-descriptor.ts';
import { msg, n as num_, type Message, type MessageValue } from '../common/pure/message.ts';
import type { Finding, PointResult } from '../common/run-record.ts';
import { agreementFinding, find, finding, okMedian, ratioValue, speedupInterval, withInterval } from './analysis.ts';
import { compareTimes, estimateOf, timeRatio, withinSpread } from '../common/pure/claims.ts';
import { aboutLab, paramWords, presetWords } from './lab-words.ts';
import type { Lab, LabAnalysis, PlanContext, PlannedPoint } from './lab.ts';
import { num } from './lab.ts';
import { labText as labTextEn } from '../common/pure/i18n/en/lab-text.ts';
import { CPU_GFLOPS_GUESS, GPU_GFLOPS_GUESS, cpuPoint, gemmWork, gpuPoint, peerPoint, repeatsParam, repeatsWithin, waivedFor } from './plan-helpers.ts';
import type { PointBase } from './plan-helpers.ts';
import { adapterHas } from '../common/webgpu-adapters.ts';
import { LIMITS } from '../common/measurement.ts';

const LAB = 'timing-pitfalls';
const SERIES = labTextEn[LAB].series;

// Each pitfall: a wrong and a right way of timing the same work.
const PAIRS = [
  { id: 'sync', wrong: 'gpu-no-sync', right: 'gpu-events' },
  { id: 'gpu-cold', wrong: 'gpu-cold', right: 'gpu-warm' },
  { id: 'cpu-cold', wrong: 'cpu-cold', right: 'cpu-warm' },
  { id: 'threads', wrong: 'cpu-one-thread', right: 'cpu-all-threads' },
  // The same mistakes as the notebooks make them in PyTorch, and time.time() against events.
  { id: 'torch-sync', wrong: 'torch-no-sync', right: 'torch-events' },
  { id: 'torch-cold', wrong: 'torch-cold', right: 'torch-warm' },
  { id: 'torch-time', wrong: 'torch-time-time', right: 'torch-events' },
  // WebGPU's: submit() returns before the work is done; a first dispatch makes its pipeline.
  { id: 'webgpu-sync', wrong: 'webgpu-submit', right: 'webgpu-done' },
  { id: 'webgpu-cold', wrong: 'webgpu-cold', right: 'webgpu-done' },
] as const;
// The series planned on a WebGPU adapter alone, timestamp queries among them (beside the host clock, not a pair).
const WEBGPU_SERIES = new Set<string>(['webgpu-submit', 'webgpu-done', 'webgpu-cold', 'webgpu-timestamps']);
const PEER_KEYS = new Set<string>(['torch-no-sync', 'torch-events', 'torch-time-time', 'torch-cold', 'torch-warm']);

const m = (key: keyof (typeof labTextEn)[typeof LAB]['findings'], values?: Parameters<typeof msg>[1]): Message => msg(`${LAB}.findings.${key}`, values);

function plan(params: ParamValues, ctx: PlanContext): PlannedPoint[] {
  const n = num(params, 'n');
  const repeats = num(params, 'repeats');
  const work = gemmWork(n, n, n, 4);
  const gemm = { op: 'gemm' as const, dtype: 'fp32' as const, m: n, n, k: n, seed: n };
  const cpuSample = work.flops / (CPU_GFLOPS_GUESS * 1e9);
  const cpuRepeats = repeatsWithin(3, cpuSample, 3, repeats);
  const gpuSample = work.flops / (GPU_GFLOPS_GUESS * 1e9);
  const point = (series: keyof (typeof labTextEn)[typeof LAB]['points'], sample: number, values?: Record<string, MessageValue>) => ({ key: series, series, name: msg(`${LAB}.points.${series}`, values), x: null, work, sampleSeconds: sample });
  const cpu = [
    cpuPoint(point('cpu-cold', cpuSample), { ...gemm, variant: 'blas', warmup: 0, repeats: 1, cold: true }, 8 * n * 1e-6),
    cpuPoint(point('cpu-warm', cpuSample), { ...gemm, variant: 'blas', warmup: 1, repeats: cpuRepeats }, 8 * n * 1e-6),
    cpuPoint(point('cpu-one-thread', cpuSample * ctx.cpuThreads), { ...gemm, variant: 'blas', warmup: 1, repeats: cpuRepeats, threads: 1 }, 8 * n * 1e-6),
    cpuPoint(point('cpu-all-threads', cpuSample, { threads: ctx.cpuThreads }), { ...gemm, variant: 'blas', warmup: 1, repeats: cpuRepeats }, 8 * n * 1e-6),
  ];
  if (ctx.gpu?.kind === 'webgpu') {
    // The tiled WGSL kernel, its cold point first; timestamp queries only where the adapter has them (without them
    // the `events` clock would fall back on the host's, and the pair would compare a clock with itself).
    const tiled = { ...gemm, variant: 'tiled' } as const;
    const stamps = gpuPoint(ctx, point('webgpu-timestamps', gpuSample), { ...tiled, warmup: 2, repeats });
    return [
      gpuPoint(ctx, point('webgpu-cold', gpuSample + 0.2), { ...tiled, clock: 'host', warmup: 0, repeats: 1, cold: true }),
      cpu[0],
      gpuPoint(ctx, point('webgpu-submit', gpuSample), { ...tiled, warmup: 2, repeats, clock: 'host-nosync' }),
      gpuPoint(ctx, point('webgpu-done', gpuSample), { ...tiled, clock: 'host', warmup: 2, repeats }),
      stamps.measurement && !adapterHas(ctx.gpu, 'timestamp-query') ? waivedFor(stamps, msg('reasons.webgpuNoTimestamps')) : stamps,
      ...cpu.slice(1),
      ...peers(ctx, point, gemm, gpuSample, repeats),
    ].filter((p): p is PlannedPoint => p !== undefined && p !== null);
  }
  // Cold points come first: later points would warm the libraries they are meant to catch cold.
  return [
    // Cold and warmed GPU calls are both timed on the host clock: what the first call does on the host (cuBLAS
    // choosing and loading its kernel) happens outside any CUDA event pair.
    gpuPoint(ctx, point('gpu-cold', gpuSample + 0.2), { ...gemm, variant: 'cublas', clock: 'host', warmup: 0, repeats: 1, cold: true }),
    cpu[0],
    gpuPoint(ctx, point('gpu-no-sync', gpuSample), { ...gemm, variant: 'cublas', warmup: 2, repeats, clock: 'host-nosync' }),
    gpuPoint(ctx, point('gpu-events', gpuSample), { ...gemm, variant: 'cublas', warmup: 2, repeats }),
    gpuPoint(ctx, point('gpu-warm', gpuSample), { ...gemm, variant: 'cublas', clock: 'host', warmup: 2, repeats }),
    ...cpu.slice(1),
    ...peers(ctx, point, gemm, gpuSample, repeats),
  ].filter((p): p is PlannedPoint => p !== undefined && p !== null);
}

type PointOf = (series: keyof (typeof labTextEn)[typeof LAB]['points'], sample: number) => PointBase;

// The notebook's PyTorch: its cold call is the first product of a worker of its own (host/ops/peer.ts). On WebGPU
// they are waived, with the reason (plan-helpers.ts).
function peers(ctx: PlanContext, point: PointOf, gemm: { op: 'gemm'; dtype: 'fp32'; m: number; n: number; k: number; seed: number }, gpuSample: number, repeats: number): (PlannedPoint | null)[] {
  const torch = { library: 'torch', code: 'torch-resident' } as const;
  return [
    peerPoint(ctx, point('torch-cold', gpuSample + 1), { ...gemm, variant: 'cublas', clock: 'host', warmup: 0, repeats: 1, cold: true }, torch, 'gpu'),
    peerPoint(ctx, point('torch-no-sync', gpuSample), { ...gemm, variant: 'cublas', warmup: 2, repeats, clock: 'host-nosync' }, torch, 'gpu'),
    peerPoint(ctx, point('torch-events', gpuSample), { ...gemm, variant: 'cublas', warmup: 2, repeats }, torch, 'gpu'),
    peerPoint(ctx, point('torch-time-time', gpuSample), { ...gemm, variant: 'cublas', clock: 'host', warmup: 2, repeats }, { ...torch, timeTime: true }, 'gpu'),
    peerPoint(ctx, point('torch-warm', gpuSample), { ...gemm, variant: 'cublas', clock: 'host', warmup: 2, repeats }, torch, 'gpu'),
  ];
}

// A PyTorch pitfall: said only as far as the two medians' intervals allow.
function torchFinding(id: 'torch-sync' | 'torch-time', wrong: PointResult | undefined, right: PointResult | undefined): Finding | null {
  const w = estimateOf(wrong);
  const r = estimateOf(right);
  if (!w || !r) return null;
  const values = { wrong: num_.ms(w.median), right: num_.ms(r.median), ratio: num_.times(r.median / w.median) };
  const order = compareTimes(w, r);
  if (id === 'torch-sync') return order === 'faster' ? finding(id, m('torchSync', values), r.median / w.median, 'times', 'warning') : finding(id, m('torchSyncUnclear', values), r.median / w.median, 'times');
  const ratio = { ...values, ratio: num_.times(w.median / r.median) };
  if (order === 'slower') return finding(id, m('torchTime', ratio), w.median / r.median, 'times', 'warning');
  if (order === 'faster') return finding(id, m('torchTimeBelow', values), w.median / r.median, 'times', 'warning');
  return finding(id, m('torchTimeAgree', values), w.median / r.median, 'times');
}

// WebGPU's two comparisons, each said as far as the two medians' intervals allow: the host clock stopped when submit()
// returns against stopped at onSubmittedWorkDone() (`webgpu-sync`), and that against timestamp queries around the
// compute pass (`webgpu-clock`). What each clock spans is how the backend reads it (host/webgpu/backend.ts); which one
// reads less is the intervals' to say.
function webgpuFinding(id: 'webgpu-sync' | 'webgpu-clock', shorter: PointResult | undefined, longer: PointResult | undefined): Finding {
  const s = estimateOf(shorter);
  const l = estimateOf(longer);
  const sMs = s?.median ?? 0;
  const lMs = l?.median ?? 0;
  const order = s && l ? compareTimes(s, l) : 'indistinguishable';
  const ratio = sMs > 0 && lMs > 0 ? lMs / sMs : 1;
  if (id === 'webgpu-sync') {
    const values = { wrong: num_.ms(sMs), right: num_.ms(lMs), ratio: num_.times(order === 'slower' ? 1 / ratio : ratio) };
    const key = order === 'faster' ? 'webgpuSync' : order === 'slower' ? 'webgpuSyncOdd' : 'webgpuSyncUnclear';
    return withInterval(finding(id, m(key, values), ratio, 'times', order === 'faster' ? 'warning' : 'info'), speedupInterval(longer, shorter));
  }
  // Here `shorter` is the host's clock, which spans the pass the timestamps read: it reads the more where they differ.
  const values = { host: num_.ms(sMs), device: num_.ms(lMs), ratio: num_.times(order === 'faster' ? ratio : 1 / ratio) };
  const key = order === 'slower' ? 'webgpuClock' : order === 'faster' ? 'webgpuClockOdd' : 'webgpuClockLevel';
  return finding(id, m(key, values), sMs > 0 ? lMs / sMs : null, 'times', order === 'faster' ? 'warning' : 'info');
}

// What a cold point holds beyond a warmed call. The compute host creates the CUDA context and the cuBLAS handle
// before the clock starts (Setup in native/cuda/cuda_op.cu), so library loading is never in it.
const COLD_CAUSES = { 'gpu-cold': 'coldCauseGpu', 'cpu-cold': 'coldCauseCpu', 'torch-cold': 'coldCauseTorch', 'webgpu-cold': 'coldCauseWebgpu' } as const;
const COLD_SIDES = { 'gpu-cold': 'GPU', 'torch-cold': 'GPU (PyTorch)', 'cpu-cold': 'CPU', 'webgpu-cold': 'GPU (WebGPU)' } as const;

// One cold sample against the warmed samples: within their spread only where it lies between the fastest and the
// slowest of them; a one-time cost where it is slower than every one of them. What the cost is made of is not
// measured here, and the sentence says so.
function coldFinding(id: keyof typeof COLD_CAUSES, coldMs: number, warm: PointResult): Finding | null {
  const e = estimateOf(warm);
  if (!e) return null;
  const ratio = coldMs / e.median;
  // One cold sample is what it is; the warmed median is known within its interval.
  const interval = { low: coldMs / e.high, high: coldMs / e.low };
  const times = { side: COLD_SIDES[id], cold: num_.ms(coldMs), min: num_.ms(e.min), max: num_.ms(e.max), median: num_.ms(e.median) };
  if (withinSpread(coldMs, e)) return withInterval(finding(id, m('coldWithin', times), ratio, 'times'), interval);
  if (coldMs < e.min) return withInterval(finding(id, m('coldBelow', times), ratio, 'times'), interval);
  const cost = { ...times, extra: num_.ms(coldMs - e.median), ratio: num_.times(ratio), cause: m(COLD_CAUSES[id]) };
  if (ratio < 1.5) return withInterval(finding(id, m('coldSmall', cost), ratio, 'times'), interval);
  return withInterval(finding(id, m('coldLarge', cost), ratio, 'times', 'warning'), interval);
}

function analyze(points: readonly PointResult[]): LabAnalysis {
  const a: LabAnalysis = { summary: {}, findings: [] };
  for (const pair of PAIRS) {
    const wrong = find(points, pair.wrong);
    const right = find(points, pair.right);
    const w = okMedian(wrong);
    const r = okMedian(right);
    a.summary[`${pair.id}.wrongMs`] = w;
    a.summary[`${pair.id}.rightMs`] = r;
    if (w === null || r === null) continue;
    switch (pair.id) {
      case 'sync':
        a.findings.push(withInterval(finding('sync', m('sync', { wrong: num_.ms(w), right: num_.ms(r), ratio: num_.times(r / w) }), r / w, 'times', 'warning'), speedupInterval(right, wrong)));
        break;
      case 'torch-sync':
      case 'torch-time': {
        const f = torchFinding(pair.id, wrong, right);
        if (f) a.findings.push(f);
        break;
      }
      case 'webgpu-sync':
        a.findings.push(webgpuFinding('webgpu-sync', wrong, right));
        break;
      case 'gpu-cold':
      case 'torch-cold':
      case 'webgpu-cold':
      case 'cpu-cold': {
        const f = coldFinding(pair.id, w, right as PointResult);
        if (f) a.findings.push(f);
        break;
      }
      case 'threads': {
        // One thread against all of them: a gain only where the intervals of the two medians separate.
        const one = estimateOf(wrong);
        const all = estimateOf(right);
        if (!one || !all) break;
        const x = w / r;
        const order = compareTimes(all, one);
        const threads = right?.threads ?? null;
        const interval = speedupInterval(wrong, right);
        // A gain beyond the thread count (with the intervals' benefit of the doubt) is not what threads alone buy.
        // The gain with the range the two intervals allow, where that range is wide (two noisy points).
        const gain = ratioValue(timeRatio(all, one));
        if (order === 'faster' && threads !== null && timeRatio(all, one).low > threads) {
          a.findings.push(withInterval(finding('threads', m('threadsBeyond', { wrong: num_.ms(w), right: num_.ms(r), ratio: gain, threads }), x, 'times', 'warning'), interval));
        } else if (order === 'faster') a.findings.push(withInterval(finding('threads', m('threads', { wrong: num_.ms(w), right: num_.ms(r), ratio: gain }), x, 'times'), interval));
        else if (order === 'slower') a.findings.push(withInterval(finding('threads', m('threadsSlower', { wrong: num_.ms(w), right: num_.ms(r), ratio: num_.times(r / w) }), x, 'times', 'warning'), interval));
        else a.findings.push(withInterval(finding('threads', m('threadsWeak', { right: num_.ms(r), wrong: num_.ms(w) }), x, 'times', 'warning'), interval));
        break;
      }
    }
  }
  const stamps = find(points, 'webgpu-timestamps');
  if (okMedian(stamps) !== null && okMedian(find(points, 'webgpu-done')) !== null) a.findings.push(webgpuFinding('webgpu-clock', find(points, 'webgpu-done'), stamps));
  // PyTorch's CUDA events against GPU Lab's on the same GEMM: both time the GPU's own work, so they should agree.
  const agreement = agreementFinding('torch-events-agreement', find(points, 'torch-events'), find(points, 'gpu-events'), { peer: msg(`${LAB}.points.torch-events`), ours: msg(`${LAB}.points.gpu-events`) });
  if (agreement) a.findings.push(agreement);
  return a;
}

export const timingPitfallsLab: Lab = {
  descriptor: {
    id: 'timing-pitfalls',
    ...aboutLab(LAB),
    parameters: [
      { kind: 'integer', name: 'n', ...paramWords(LAB, 'n'), unit: '', default: 2048, min: 16, max: LIMITS.matrixOrder },
      repeatsParam(10),
    ],
    presets: [
      { id: 'default', ...presetWords(LAB, 'default'), params: {} },
      { id: 'small', ...presetWords(LAB, 'small'), params: { n: 256 } },
    ],
    kernels: [
      { kind: 'library', file: 'OpenBLAS', functions: ['cblas_sgemm'], fallback: 'native/cpu/gemm.cc' },
      { kind: 'cpu', file: 'native/cpu/gemm.cc', functions: ['BlockedGemm'] },
      { kind: 'library', file: 'cuBLAS', functions: ['cublasGemmEx (CUBLAS_COMPUTE_32F)'] },
      { kind: 'python', file: 'python/gpu_lab_peers/labs/matmul.py', functions: ['torch_resident'] },
      { kind: 'wgsl', file: 'shaders/wgsl/gemm.wgsl', functions: ['tiled'] },
    ],
    // Each pair's series, once each (torch-events is the right side of two pairs).
    // A pair in one hue, its wrong timing paler; time.time() shares PyTorch's events with the missing synchronisation.
    series: [...new Set([...PAIRS.flatMap((p) => [p.wrong, p.right]), 'webgpu-timestamps' as const])].map((key) => ({
      key,
      label: SERIES[key],
      deviceKind: key.startsWith('cpu') ? ('cpu' as const) : ('cuda' as const),
      ...(PEER_KEYS.has(key) ? { peer: 'torch' as const } : {}),
      family: key === 'webgpu-timestamps' ? 'webgpu-sync' : (PAIRS.find((p) => p.right === PAIRS.find((q) => q.wrong === key || q.right === key)?.right)?.id ?? key),
      ...(PAIRS.some((p) => p.wrong === key) ? { tone: 'pale' as const } : {}),
      ...(WEBGPU_SERIES.has(key) ? { webgpuOnly: true as const } : {}),
    })),
    headline: ['sync', 'webgpu-sync', 'gpu-cold', 'webgpu-cold', 'cpu-cold', 'threads'],
    chart: { x: { quantity: 'category', log: false }, y: { quantity: 'ms', log: true } },
  },
  plan,
  analyze,
};
