// Lab elementwise-breakeven: add, mul and exp over sizes 10² … 10⁸ float32, the CPU (all threads) against the GPU
// with the copies included and with the data already resident; where the GPU becomes 2× faster, and by how much it
// wins or loses at a million elements.
import type { DeviceSummary } from '../common/devices.ts';
import type { ParamValues } from '../common/lab-descriptor.ts';
import { formatNumber, msg, n as num_, type Message } from '../common/pure/message.ts';
import type { Finding, PointResult } from '../common/run-record.ts';
import type { Crossing } from './analysis.ts';
import { bestRate, breakEvenSummary, cpuSide, crossingOf, find, finding, interpolateLogLog, okMedian, quotientInterval, rateInterval, seriesPoints, sweepAgreement, withInterval } from './analysis.ts';
import { aboutLab, paramWords, presetWords } from './lab-words.ts';
import type { Lab, LabAnalysis, PlanContext, PlannedPoint } from './lab.ts';
import { num, strs } from './lab.ts';
import { labText as labTextEn } from '../common/pure/i18n/en/lab-text.ts';
import {
  BUS_GBPS_GUESS, CPU_GBPS_GUESS, GPU_GBPS_GUESS, MIN_SAMPLE_MS, batchedSampleSeconds, cpuPoint, elementwiseWork, gpuPoint, logSizes, repeatsParam, repeatsWithin, seconds, threadsParam, cpuThreadsOf,
  warmupParam,
  peerPoint,
  pointName,
} from './plan-helpers.ts';

const LAB = 'elementwise-breakeven';
const TEXT = labTextEn[LAB];
const OPS = ['add', 'mul', 'exp'] as const;
type Op = (typeof OPS)[number];
const PATHS = [
  { key: 'gpu-transfers', path: 'with-copies' },
  { key: 'gpu-resident', path: 'resident' },
] as const;
type PathKey = (typeof PATHS)[number]['key'];
// Seed 003's exercise in PyTorch (python/gpu_lab_peers/labs/elementwise.py): its CPU, and its GPU the same two ways.
const TORCH = [
  { key: 'torch-transfers', code: 'torch-transfers', path: 'with-copies', ours: 'gpu-transfers' },
  { key: 'torch-resident', code: 'torch-resident', path: 'resident', ours: 'gpu-resident' },
] as const;
type SeriesKind = 'cpu' | PathKey | 'torch-cpu' | (typeof TORCH)[number]['key'];
const REFERENCE_SIZE = 1_000_000;
// The CPU series a break-even reads against: GPU Lab's and the notebook's PyTorch on the CPU, whichever was faster.
const CPU_KINDS = ['cpu', 'torch-cpu'] as const;

const series = <K extends SeriesKind>(op: Op, kind: K): `${Op}-${K}` => `${op}-${kind}`;
const m = (key: keyof typeof TEXT.findings, values?: Parameters<typeof msg>[1]): Message => msg(`${LAB}.findings.${key}`, values);
const pathName = (key: PathKey): Message => msg(`${LAB}.paths.${key}`);
// A CPU series of `op` as a finding names it: "GPU Lab’s CPU code", "PyTorch on the CPU".
const cpuName = (op: Op, key: string): Message => msg(`${LAB}.cpuNames.${key.slice(op.length + 1)}`);
// Point labels are the record's, locale-neutral: English, whatever language the app is shown in.

function plan(params: ParamValues, ctx: PlanContext): PlannedPoint[] {
  const sizes = logSizes(num(params, 'minExponent'), num(params, 'maxExponent'), num(params, 'pointsPerDecade'));
  const repeats = num(params, 'repeats');
  const warmup = num(params, 'warmup');
  const threads = cpuThreadsOf(params);
  const points: PlannedPoint[] = [];
  for (const op of strs(params, 'ops') as Op[]) {
    for (const n of sizes) {
      const work = elementwiseWork(op, n);
      const cpuSample = batchedSampleSeconds(seconds(work, 5, CPU_GBPS_GUESS));
      // Big sizes take a second or more per sample on two cores: at least 3 samples, at most `repeats`, ~1 s.
      const r = repeatsWithin(1, cpuSample, Math.min(3, repeats), repeats);
      const base = { key: `${series(op, 'cpu')}@${n}`, series: series(op, 'cpu'), name: pointName(LAB, series(op, 'cpu'), num_.count(n)), x: n, work };
      points.push(cpuPoint({ ...base, sampleSeconds: cpuSample }, { op, variant: 'threads', elements: n, warmup, repeats: r, seed: n, minSampleMs: MIN_SAMPLE_MS, ...(threads ? { threads } : {}) }, n * 3e-8, ctx.cpu));
      for (const p of PATHS) {
        const gpuSample = batchedSampleSeconds(p.path === 'resident' ? seconds(work, 1000, GPU_GBPS_GUESS) + 5e-6 : work.bytes / (BUS_GBPS_GUESS * 1e9) + 3e-5);
        const s = series(op, p.key);
        points.push(
          gpuPoint(
            ctx,
            { key: `${s}@${n}`, series: s, name: pointName(LAB, s, num_.count(n)), x: n, work, sampleSeconds: gpuSample },
            // Both GPU paths on the host clock, like the CPU: the break-even is about the time a program waits for,
            // and for small arrays that is the launch and the synchronisation, not the kernel.
            { op, variant: 'kernel', elements: n, path: p.path, clock: 'host', warmup, repeats: repeatsWithin(1, gpuSample, Math.min(3, repeats), repeats), seed: n, minSampleMs: MIN_SAMPLE_MS },
          ),
        );
      }
      const torchCpu = peerPoint(
        ctx,
        { key: `${series(op, 'torch-cpu')}@${n}`, series: series(op, 'torch-cpu'), name: pointName(LAB, series(op, 'torch-cpu'), num_.count(n)), x: n, work, sampleSeconds: cpuSample },
        { op, variant: 'threads', elements: n, warmup, repeats: r, seed: n, minSampleMs: MIN_SAMPLE_MS },
        { library: 'torch', code: 'torch-cpu' },
      );
      if (torchCpu) points.push(torchCpu);
      for (const t of TORCH) {
        const gpuSample = batchedSampleSeconds(t.path === 'resident' ? seconds(work, 1000, GPU_GBPS_GUESS) + 2e-5 : work.bytes / (BUS_GBPS_GUESS * 1e9) + 1e-4);
        const s = series(op, t.key);
        const point = peerPoint(
          ctx,
          { key: `${s}@${n}`, series: s, name: pointName(LAB, s, num_.count(n)), x: n, work, sampleSeconds: gpuSample },
          // On the host's clock after a synchronise, like the engine's GPU series here.
          { op, variant: 'kernel', elements: n, path: t.path, clock: 'host', warmup, repeats: repeatsWithin(1, gpuSample, Math.min(3, repeats), repeats), seed: n, minSampleMs: MIN_SAMPLE_MS },
          { library: 'torch', code: t.code },
          'gpu',
        );
        if (point) points.push(point);
      }
    }
  }
  return points;
}

// Whether a crossing's range is worth saying: both ends found, and apart at the two significant digits it is given to.
const rangeSaid = (low: number | null, high: number | null): boolean => low !== null && high !== null && formatNumber(num_.breakEvenCount(high), 'en') !== formatNumber(num_.breakEvenCount(low), 'en');

// The CPU a break-even of GPU Lab's GPU is read against (labs/analysis.ts, cpuSide): `cpu` as the sentence names it
// (marked the fastest measured where there were two), `plain` without the mark, and `beside` the other CPU's crossing.
interface Against {
  cpu: Message;
  plain: Message;
  beside: Message | '';
}

// The break-even as a sentence, the speedup at a million elements appended where the sizes measured span it. The
// target is a parameter, an exact number: "2×", not the "2.00×" of a measured ratio.
// Where the crossing lies between two measured sizes, the range it can lie in within the medians' intervals follows
// the size (from the most and the least favourable speedups), where both ends are found and differ.
// `against` null: PyTorch's own crossing, its GPU against its CPU, in sentences that name PyTorch's CPU as the baseline.
function breakEvenMessage(c: Crossing, op: Op, path: PathKey, target: number, against: Against | null): Message | null {
  const { b, low, high } = c;
  const key = (k: 'at' | 'between' | 'betweenRange' | 'belowRange' | 'never') => (against === null ? (`torch${k[0]?.toUpperCase()}${k.slice(1)}` as const) : k);
  const at1M = interpolateLogLog(c.curve, REFERENCE_SIZE);
  const at = at1M === null ? '' : m(key('at') as 'at', { reference: num_.count(REFERENCE_SIZE), ratio: num_.times(at1M), ...(against ? { cpu: against.plain } : {}) });
  const said = { op, path: pathName(path), target: num_.sig(target), at, ...(against ? { cpu: against.cpu, beside: against.beside } : {}) };
  switch (b.kind) {
    case 'between':
      // Interpolated, so known to two significant digits, as are the ends of its range.
      if (rangeSaid(low, high)) return m(key('betweenRange') as 'betweenRange', { ...said, size: num_.breakEvenCount(b.size), low: num_.breakEvenCount(low ?? 0), high: num_.breakEvenCount(high ?? 0) });
      return m(key('between') as 'between', { ...said, size: num_.breakEvenCount(b.size) });
    case 'below-range':
      return m(key('belowRange') as 'belowRange', { ...said, size: num_.count(b.size) });
    case 'never':
      return m(key('never') as 'never', { ...said, ratio: num_.times(b.best), size: num_.count(b.at) });
    case 'no-data':
      return null;
  }
}

// The same GPU series against a CPU series beside the fastest, as a sentence after the answer, with its own range.
function besideText(points: readonly PointResult[], cpu: { key: string; name: Message }, gpu: string, target: number): Message | '' {
  const { b, low, high } = crossingOf(points, cpu.key, gpu, target);
  if (b.kind === 'between' && rangeSaid(low, high)) return m('besideRange', { cpu: cpu.name, size: num_.breakEvenCount(b.size), low: num_.breakEvenCount(low ?? 0), high: num_.breakEvenCount(high ?? 0) });
  if (b.kind === 'between') return m('besideBetween', { cpu: cpu.name, size: num_.breakEvenCount(b.size) });
  if (b.kind === 'below-range') return m('besideBelow', { cpu: cpu.name, size: num_.count(b.size) });
  if (b.kind === 'never') return m('besideNever', { cpu: cpu.name, ratio: num_.times(b.best), size: num_.count(b.at) });
  return '';
}

// A ratio smaller than this between the CPU's best rate and its rate at the largest size is not worth a cause: clocks,
// threads and noise move rates by that much.
const CPU_RATE_DROP = 1.5;

// The CPU's best rate against its rate at the largest size. The caches are named only when they can explain the drop:
// the best size's arrays fit in the last-level cache and the largest size's do not.
function cpuBandwidthFinding(op: Op, points: readonly PointResult[], cpu: DeviceSummary | null): Finding | null {
  const best = bestRate(points, series(op, 'cpu'), 'gbps');
  const largest = seriesPoints(points, series(op, 'cpu')).filter((p) => p.status === 'ok').at(-1);
  if (!best?.gbps || !largest?.gbps || largest === best) return null;
  const drop = best.gbps / largest.gbps;
  if (drop < CPU_RATE_DROP) return null;
  const l3 = cpu?.details.l3CacheBytes;
  let cause: Message | '' = '';
  if (typeof l3 === 'number' && l3 > 0) {
    if (best.work.bytes <= l3 && largest.work.bytes > l3) cause = m('cacheFits', { cache: num_.bytes(l3) });
    else if (best.work.bytes > l3) cause = m('cacheExceeded', { cache: num_.bytes(l3) });
  }
  const text = m('cpuBandwidth', {
    op,
    bestRate: num_.rate(best.gbps, 'GB/s'),
    bestSize: num_.count(best.x ?? 0),
    bestBytes: num_.bytes(best.work.bytes),
    largeRate: num_.rate(largest.gbps, 'GB/s'),
    largeSize: num_.count(largest.x ?? 0),
    largeBytes: num_.bytes(largest.work.bytes),
    drop: num_.times(drop),
    cause,
  });
  return withInterval(finding(`${op}-cpu-bandwidth`, text, drop, 'times'), quotientInterval(rateInterval(best, 'gbps'), rateInterval(largest, 'gbps')));
}

// " (12 µs resident against 2.5 ms with copies)" where both were measured at that size; '' where the figure is
// interpolated between sizes.
function timesAt(points: readonly PointResult[], op: Op, size: number): Message | '' {
  const resident = okMedian(find(points, series(op, 'gpu-resident'), size));
  const withCopies = okMedian(find(points, series(op, 'gpu-transfers'), size));
  return resident !== null && withCopies !== null ? m('copiesTimes', { resident: num_.ms(resident), withCopies: num_.ms(withCopies) }) : '';
}

function analyze(points: readonly PointResult[], params: ParamValues, cpu: DeviceSummary | null): LabAnalysis {
  const target = num(params, 'target');
  const analysis: LabAnalysis = { summary: {}, findings: [] };
  for (const op of strs(params, 'ops') as Op[]) {
    // Each GPU path's break-even read against the faster of GPU Lab's CPU and PyTorch's, named, the other beside it
    // (DESIGN §10, "Baselines").
    const side = cpuSide(points, CPU_KINDS.map((k) => series(op, k)), (key) => cpuName(op, key));
    for (const p of PATHS) {
      // The summary (the chart's marks, the deliverable's table, a class's spread) keeps the break-even over GPU Lab's
      // own CPU.
      const own = crossingOf(points, series(op, 'cpu'), series(op, p.key), target);
      const stored = breakEvenSummary(own.b, own.curve);
      analysis.summary[`${op}.${p.key}.breakEvenSize`] = stored.size;
      analysis.summary[`${op}.${p.key}.breakEvenAtMost`] = stored.atMost;
      analysis.summary[`${op}.${p.key}.breakEvenAbove`] = stored.above;
      analysis.summary[`${op}.${p.key}.speedupAt1M`] = interpolateLogLog(own.curve, REFERENCE_SIZE);
      analysis.summary[`${op}.${p.key}.breakEvenSizeLow`] = own.low;
      analysis.summary[`${op}.${p.key}.breakEvenSizeHigh`] = own.high;
      if (!side) continue;
      const c = crossingOf(points, side.key, series(op, p.key), target);
      const beside = side.others.map((o) => besideText(points, o, series(op, p.key), target)).find((text) => text !== '') ?? '';
      const text = breakEvenMessage(c, op, p.key, target, { cpu: side.name, plain: cpuName(op, side.key), beside });
      if (text) analysis.findings.push(withInterval(finding(`${op}-${p.key}-break-even`, text, c.b.kind === 'between' ? c.b.size : null, 'elements'), { low: c.low, high: c.high }));
    }
    for (const t of TORCH) {
      const c = crossingOf(points, series(op, 'torch-cpu'), series(op, t.key), target);
      const text = breakEvenMessage(c, op, t.ours, target, null);
      if (!text) continue;
      analysis.summary[`${op}.${t.key}.breakEvenSize`] = breakEvenSummary(c.b, c.curve).size;
      analysis.findings.push(withInterval(finding(`${op}-${t.key}-break-even`, text, c.b.kind === 'between' ? c.b.size : null, 'elements'), { low: c.low, high: c.high }));
    }
    // PyTorch against the engine where both do the same work, at the largest size both measured: their CPUs, and
    // their GPUs on resident data.
    for (const [peer, ours] of [['torch-cpu', 'cpu'], ['torch-resident', 'gpu-resident']] as const) {
      const keys = { peer: series(op, peer), ours: series(op, ours) };
      const f = sweepAgreement(points, keys, { peer: msg(`${LAB}.series.${keys.peer}`), ours: msg(`${LAB}.series.${keys.ours}`) }, num_.count);
      if (f) analysis.findings.push(f);
    }
    const bandwidth = cpuBandwidthFinding(op, points, cpu);
    if (bandwidth) analysis.findings.push(bandwidth);
    const withCopies = analysis.summary[`${op}.gpu-transfers.speedupAt1M`] ?? null;
    const resident = analysis.summary[`${op}.gpu-resident.speedupAt1M`] ?? null;
    if (withCopies !== null && resident !== null && resident > withCopies) {
      const text = m('copiesCost', { op, reference: num_.count(REFERENCE_SIZE), ratio: num_.times(resident / withCopies), times: timesAt(points, op, REFERENCE_SIZE) });
      analysis.findings.push(finding(`${op}-copies-cost`, text, resident / withCopies, 'times'));
    }
  }
  return analysis;
}

export const elementwiseBreakevenLab: Lab = {
  descriptor: {
    id: 'elementwise-breakeven',
    ...aboutLab(LAB),
    parameters: [
      { kind: 'choice-list', name: 'ops', ...paramWords(LAB, 'ops'), unit: '', default: ['add', 'mul', 'exp'], choices: [...OPS] },
      { kind: 'integer', name: 'minExponent', ...paramWords(LAB, 'minExponent'), unit: 'log10 elements', default: 2, min: 1, max: 9 },
      { kind: 'integer', name: 'maxExponent', ...paramWords(LAB, 'maxExponent'), unit: 'log10 elements', default: 8, min: 1, max: 9, atLeast: 'minExponent' },
      // Two sizes a decade: the GPU usually overtakes where the CPU's arrays leave its cache, and one size a decade
      // leaves that cliff between 10⁶ and 10⁷ to a straight line, which moved the break-even by up to 10× between
      // runs on an H100 (two: within 1.2× over three runs).
      { kind: 'integer', name: 'pointsPerDecade', ...paramWords(LAB, 'pointsPerDecade'), unit: '', default: 2, min: 1, max: 4 },
      { kind: 'number', name: 'target', ...paramWords(LAB, 'target'), unit: '×', default: 2, min: 1, max: 100 },
      repeatsParam(20),
      warmupParam(2),
      threadsParam(),
    ],
    presets: [
      { id: 'full', ...presetWords(LAB, 'full'), params: {} },
      { id: 'seed-003', ...presetWords(LAB, 'seed-003'), params: { maxExponent: 6, pointsPerDecade: 1 } },
      { id: 'fine', ...presetWords(LAB, 'fine'), params: { pointsPerDecade: 4 } },
    ],
    kernels: [
      { kind: 'cpu', file: 'native/cpu/elementwise.cc', functions: ['AddRange', 'MulRange', 'ExpRange'] },
      { kind: 'cuda', file: 'shaders/cuda/elementwise.cu', functions: ['BinaryKernel (add, mul)', 'UnaryKernel (exp)'] },
      { kind: 'wgsl', file: 'shaders/wgsl/elementwise.wgsl', functions: ['add', 'mul', 'exp_kernel'] },
      { kind: 'python', file: 'python/gpu_lab_peers/labs/elementwise.py', functions: ['_cpu', '_transfers', '_resident'] },
    ],
    // One panel per operation; in each, a path keeps its hue, PyTorch's beside the engine's.
    series: OPS.flatMap((op) => {
      const inOp = (kind: SeriesKind) => ({ key: series(op, kind), label: TEXT.series[series(op, kind)], panel: op, inPanel: TEXT.inPanel[kind] });
      return [
        { ...inOp('cpu'), deviceKind: 'cpu' as const, family: 'cpu' },
        ...PATHS.map((p) => ({ ...inOp(p.key), deviceKind: 'cuda' as const, baseline: series(op, 'cpu'), family: p.key })),
        { ...inOp('torch-cpu'), deviceKind: 'cpu' as const, peer: 'torch' as const, family: 'cpu' },
        ...TORCH.map((t) => ({ ...inOp(t.key), deviceKind: 'cuda' as const, baseline: series(op, 'torch-cpu'), peer: 'torch' as const, family: t.ours })),
      ];
    }),
    headline: ['add-gpu-transfers-break-even', 'add-gpu-resident-break-even', 'add-cpu-bandwidth'],
    chart: { x: { quantity: 'elements', log: true }, y: { quantity: 'speedup', log: true } },
  },
  plan,
  analyze: (points, params, _gpu, cpu) => analyze(points, params, cpu ?? null),
};
