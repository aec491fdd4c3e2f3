// Lab timing-pitfalls: the same work timed wrongly and rightly. A GPU GEMM timed without synchronising (the clock
// stops when the launch returns) against CUDA events; a cold first call against warmed calls, on the CPU and the
// GPU; one CPU thread against all of them.
import type { ParamValues } from '../common/lab-descriptor.ts';
import { msg, n as num_, type Message, type MessageValue } from '../common/message.ts';
import type { Finding, PointResult } from '../common/run-record.ts';
import { find, finding, okMedian, speedup } from './analysis.ts';
import type { Lab, LabAnalysis, PlanContext, PlannedPoint } from './lab.ts';
import { num } from './lab.ts';
import { labText as labTextEn } from '../common/i18n/en/lab-text.ts';
import { CPU_GFLOPS_GUESS, GPU_GFLOPS_GUESS, cpuPoint, gemmWork, gpuPoint, repeatsParam, repeatsWithin } from './plan-helpers.ts';

const LAB = 'timing-pitfalls';
const SERIES = labTextEn[LAB].series;

// Each pitfall: a wrong and a right way of timing the same work.
const PAIRS = [
  { id: 'sync', wrong: 'gpu-no-sync', right: 'gpu-events' },
  { id: 'gpu-cold', wrong: 'gpu-cold', right: 'gpu-warm' },
  { id: 'cpu-cold', wrong: 'cpu-cold', right: 'cpu-warm' },
  { id: 'threads', wrong: 'cpu-one-thread', right: 'cpu-all-threads' },
] as const;

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
  // Cold points come first: later points would warm the libraries they are meant to catch cold.
  return [
    // Cold and warmed GPU calls are both timed on the host clock: what the first call does on the host (cuBLAS
    // choosing and loading its kernel) happens outside any CUDA event pair.
    gpuPoint(ctx, point('gpu-cold', gpuSample + 0.2), { ...gemm, variant: 'cublas', warmup: 0, repeats: 1, cold: true }, 'host'),
    cpuPoint(point('cpu-cold', cpuSample), { ...gemm, variant: 'blas', warmup: 0, repeats: 1, cold: true }, 8 * n * 1e-6),
    gpuPoint(ctx, point('gpu-no-sync', gpuSample), { ...gemm, variant: 'cublas', warmup: 2, repeats, clock: 'host-nosync' }, 'host'),
    gpuPoint(ctx, point('gpu-events', gpuSample), { ...gemm, variant: 'cublas', warmup: 2, repeats }),
    gpuPoint(ctx, point('gpu-warm', gpuSample), { ...gemm, variant: 'cublas', warmup: 2, repeats }, 'host'),
    cpuPoint(point('cpu-warm', cpuSample), { ...gemm, variant: 'blas', warmup: 1, repeats: cpuRepeats }, 8 * n * 1e-6),
    cpuPoint(point('cpu-one-thread', cpuSample * ctx.cpuThreads), { ...gemm, variant: 'blas', warmup: 1, repeats: cpuRepeats, threads: 1 }, 8 * n * 1e-6),
    cpuPoint(point('cpu-all-threads', cpuSample, { threads: ctx.cpuThreads }), { ...gemm, variant: 'blas', warmup: 1, repeats: cpuRepeats }, 8 * n * 1e-6),
  ];
}

// What a cold point holds beyond a warmed call. The compute host creates the CUDA context and the cuBLAS handle
// before the clock starts (Setup in native/cuda/cuda_op.cu), so library loading is never in it.
const COLD_CAUSES = { 'gpu-cold': 'coldCauseGpu', 'cpu-cold': 'coldCauseCpu' } as const;

// One cold sample against the warmed samples. It counts as a one-time cost only when it is slower than every warmed
// sample and by at least 10 % of their median: a single sample can land anywhere in their spread by chance.
function coldFinding(id: 'gpu-cold' | 'cpu-cold', coldMs: number, warm: PointResult): Finding {
  const warmMs = warm.stats?.median ?? 0;
  const warmMax = warm.stats?.max ?? warmMs;
  const ratio = coldMs / warmMs;
  const times = { side: id === 'gpu-cold' ? 'GPU' : 'CPU', cold: num_.ms(coldMs), min: num_.ms(warm.stats?.min ?? warmMs), max: num_.ms(warmMax), median: num_.ms(warmMs) };
  if (coldMs <= Math.max(warmMax, 1.1 * warmMs)) return finding(id, m('coldWithin', times), ratio, 'times');
  const cost = { ...times, extra: num_.ms(coldMs - warmMs), ratio: num_.times(ratio), cause: m(COLD_CAUSES[id]) };
  if (ratio < 1.5) return finding(id, m('coldSmall', cost), ratio, 'times');
  return finding(id, m('coldLarge', cost), ratio, 'times', 'warning');
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
        a.findings.push(finding('sync', m('sync', { wrong: num_.ms(w), right: num_.ms(r), ratio: num_.times(r / w) }), r / w, 'times', 'warning'));
        break;
      case 'gpu-cold':
      case 'cpu-cold':
        if (right) a.findings.push(coldFinding(pair.id, w, right));
        break;
      case 'threads': {
        const x = speedup(wrong, right) ?? 1;
        if (x < 1.2) {
          a.findings.push(finding('threads', m('threadsWeak', { right: num_.ms(r), wrong: num_.ms(w) }), x, 'times', 'warning'));
          break;
        }
        a.findings.push(finding('threads', m('threads', { wrong: num_.ms(w), right: num_.ms(r), ratio: num_.times(x) }), x, 'times'));
        break;
      }
    }
  }
  return a;
}

export const timingPitfallsLab: Lab = {
  descriptor: {
    id: 'timing-pitfalls',
    title: 'Timing pitfalls: the same work measured wrongly and rightly',
    summary: 'No synchronisation against CUDA events, a cold first call against warmed calls, one CPU thread against all of them.',
    explanation: [
      'A GPU runs asynchronously: launching a kernel returns at once and the GPU works on while the CPU carries on. Reading a clock right after the launch measures how long it took to queue the work, not to do it. The right ways are CUDA events recorded on the GPU\'s own timeline, or synchronising before reading the host clock.',
      'The first call of anything pays one-time costs: loading a library, creating a CUDA context or a cuBLAS handle, compiling or loading kernels, the operating system mapping fresh memory page by page. Warm-up runs keep those costs out of the figure you compare. Here the compute host has loaded the libraries and created the context and the handle before the clock starts, so the cold point catches only what is left: fresh buffers, the first call of this shape, cold caches. That can be small; the very first GPU call of a script pays for the loading too.',
      'Libraries such as NumPy and PyTorch use every CPU core. Comparing a GPU with a single CPU thread, or a threaded library with a single-thread loop, makes any speedup look larger than it is: state the thread count, or measure both as here.',
    ],
    lookFor: [
      'How many times shorter the unsynchronised time is than the true time.',
      'How much slower the first call is than the warmed ones, and whether the difference stands out of the warmed calls\' own spread.',
      'The gain of all CPU threads over one.',
    ],
    parameters: [
      { kind: 'integer', name: 'n', label: 'Matrix size N', description: 'Size of the N×N float32 GEMM used for every pitfall.', unit: '', default: 2048, min: 16, max: 16384 },
      repeatsParam(10),
    ],
    presets: [
      { id: 'default', label: 'N = 2048', description: 'A GEMM long enough to see each mistake clearly.', params: {} },
      { id: 'small', label: 'N = 256: launch costs dominate', description: 'So little work that an unsynchronised clock reads almost nothing and the first call is mostly start-up.', params: { n: 256 } },
    ],
    kernels: [
      { kind: 'library', file: 'OpenBLAS (sgemm), else native/cpu/gemm.cc', functions: ['cblas_sgemm'] },
      { kind: 'library', file: 'cuBLAS', functions: ['cublasGemmEx (CUBLAS_COMPUTE_32F)'] },
    ],
    series: PAIRS.flatMap((p) => [
      { key: p.wrong, label: SERIES[p.wrong], deviceKind: p.wrong.startsWith('gpu') ? ('cuda' as const) : ('cpu' as const) },
      { key: p.right, label: SERIES[p.right], deviceKind: p.right.startsWith('gpu') ? ('cuda' as const) : ('cpu' as const) },
    ]),
    chart: { x: { quantity: 'category', log: false }, y: { quantity: 'ms' } },
  },
  plan,
  analyze,
};
