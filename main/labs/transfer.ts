// Lab transfer: copy bandwidth over sizes 1 KiB … 1 GiB, host→device and device→host from pageable and from pinned
// host memory, synchronous and asynchronous, and device→device. On a WebGPU adapter, WebGPU's own copies from pageable
// memory (queue.writeBuffer, a mapped upload buffer, a mapped staging buffer) in place of cudaMemcpy's, pinned memory
// waived (WebGPU has none), device→device by copyBufferToBuffer.
import type { DeviceSummary } from '../common/devices.ts';
import type { ParamValues } from '../common/lab-descriptor.ts';
import { msg, n, type Message } from '../common/pure/message.ts';
import { shareOfPeak, type Finding, type PointResult } from '../common/run-record.ts';
import { compareTimes, estimateOf } from '../common/pure/claims.ts';
import { isWebgpuDevice } from '../common/measurement.ts';
import { bestRate, find, finding, okMedian, quotientInterval, rateInterval, seriesPoints, sweepAgreement, withInterval } from './analysis.ts';
import { aboutLab, paramWords, presetWords } from './lab-words.ts';
import type { Lab, LabAnalysis, PlanContext, PlannedPoint } from './lab.ts';
import { num, strs } from './lab.ts';
import { labText as labTextEn } from '../common/pure/i18n/en/lab-text.ts';
import { BUS_GBPS_GUESS, gpuPoint, peerPoint, pointName, repeatsParam, repeatsWithin, warmupParam } from './plan-helpers.ts';
import { LIMITS } from '../common/measurement.ts';

type Direction = 'h2d' | 'd2h' | 'd2d';

const LAB = 'transfer';
const SERIES: Readonly<Record<string, string>> = labTextEn[LAB].series;
const m = (key: keyof (typeof labTextEn)[typeof LAB]['findings'], values?: Parameters<typeof msg>[1]): Message => msg(`${LAB}.findings.${key}`, values);
const seriesName = (key: string): Message => msg(`${LAB}.series.${key}`);

interface Kind {
  series: string;
  direction: Direction;
  hostMemory: 'pageable' | 'pinned';
  mode: 'sync' | 'async';
  // WebGPU's way of a host→device copy (measurement.ts).
  upload?: 'write-buffer' | 'mapped';
}

// WebGPU's copies from pageable memory, each waited for (host/webgpu/copy.ts).
const WEBGPU_KINDS: readonly Kind[] = [
  { series: 'webgpu-h2d-write-buffer', direction: 'h2d', hostMemory: 'pageable', mode: 'sync', upload: 'write-buffer' },
  { series: 'webgpu-h2d-mapped', direction: 'h2d', hostMemory: 'pageable', mode: 'sync', upload: 'mapped' },
  { series: 'webgpu-d2h-mapped', direction: 'd2h', hostMemory: 'pageable', mode: 'sync' },
];
const WEBGPU_KEYS = new Set(WEBGPU_KINDS.map((k) => k.series));

// The course's copies in PyTorch (python/gpu_lab_peers/labs/transfer.py), each against the engine's synchronous copy
// of the same direction and host memory. Pinned copies are held to 3 %: both are one cudaMemcpy of the same bytes
// from page-locked memory, with nothing between the bus and either clock.
// The seed times host→device copies only: PyTorch's copies back are GPU Lab's addition.
const PEER_SERIES = [
  { series: 'torch-h2d-pageable', direction: 'h2d', hostMemory: 'pageable', ours: 'h2d-pageable-sync', within: 0.1, addition: false },
  { series: 'torch-h2d-pinned', direction: 'h2d', hostMemory: 'pinned', ours: 'h2d-pinned-sync', within: 0.03, addition: false },
  { series: 'torch-d2h-pageable', direction: 'd2h', hostMemory: 'pageable', ours: 'd2h-pageable-sync', within: 0.1, addition: true },
  { series: 'torch-d2h-pinned', direction: 'd2h', hostMemory: 'pinned', ours: 'd2h-pinned-sync', within: 0.03, addition: true },
] as const;
const PEER_KEYS = new Set<string>(PEER_SERIES.map((s) => s.series));

// "h2d-pinned-sync" → the family h2d, the deep shade.
function copyColour(series: string): { family: string; tone?: 'deep' } {
  return { family: series.split('-')[0] ?? series, ...(series.includes('-pinned') ? { tone: 'deep' as const } : {}) };
}

// The kinds of copy the parameters ask for; on a WebGPU adapter, WebGPU's own copies from pageable memory (where
// pageable memory and synchronous copies are asked for) in place of cudaMemcpy's, its pinned ones kept to be waived.
function kinds(params: ParamValues, webgpu = false): Kind[] {
  const out: Kind[] = [];
  const memories = strs(params, 'hostMemory') as Kind['hostMemory'][];
  const modes = strs(params, 'modes') as Kind['mode'][];
  for (const direction of strs(params, 'directions') as Direction[]) {
    if (direction === 'd2d') {
      out.push({ series: 'd2d', direction, hostMemory: 'pinned', mode: 'sync' });
      continue;
    }
    if (webgpu && memories.includes('pageable') && modes.includes('sync')) out.push(...WEBGPU_KINDS.filter((k) => k.direction === direction));
    for (const hostMemory of memories.filter((h) => !webgpu || h === 'pinned')) {
      for (const mode of modes) out.push({ series: `${direction}-${hostMemory}-${mode}`, direction, hostMemory, mode });
    }
  }
  return out;
}

// Seed 003's own copies: float32 matrices of 100×100, 1000×1000 and 5000×5000 (0.04, 4 and 100 MB), which its
// benchmark times and its pinned-memory example compares at the largest.
export const SEED_COPY_BYTES = [100, 1000, 5000].map((n) => 4 * n * n);

export function transferSizes(minBytes: number, maxBytes: number): number[] {
  const sizes: number[] = [];
  // Powers of 4 from the smallest: 1 KiB, 4 KiB, … 1 GiB is 11 sizes; then the seed's sizes that lie in the range.
  for (let s = minBytes; s <= maxBytes; s *= 4) sizes.push(s);
  for (const s of SEED_COPY_BYTES) if (s >= minBytes && s <= maxBytes) sizes.push(s);
  return [...new Set(sizes)].sort((a, b) => a - b);
}

// The series held to a margin closer than the medians' usual ±2 % (PEER_SERIES' `within`), sampled at their largest
// size, where the agreement is read, until each median is known to ±1 %: two ±2 % intervals could never show a
// 3 % agreement. Twice the repeats give the budget room for it.
const CLOSE_SERIES = new Set(['h2d-pinned-sync', 'd2h-pinned-sync', 'torch-h2d-pinned', 'torch-d2h-pinned']);
const CLOSE_TARGET = 0.01;

function sampledFor(series: string, bytes: number, largest: number, repeats: number): { repeats: number; targetFraction?: number } {
  return CLOSE_SERIES.has(series) && bytes === largest ? { repeats: Math.max(2 * repeats, 40), targetFraction: CLOSE_TARGET } : { repeats };
}

// The sizes a PyTorch copy is measured at. The article's own `.to('cuda')` from pageable memory over the whole sweep:
// the report reads on it how the bandwidth grows with size and from which size it reaches half its best. The others
// at the article's sizes in the sweep (its pinned example's 100 MB, its table's three) and the largest, where each is
// held against the engine's copy: nothing reads them in between, and each of their points pays a pinning or an
// allocation of its own in the worker (a fifth of the transfer lab's time went to the PyTorch series).
function peerSizes(series: string, sizes: readonly number[]): number[] {
  if (series === 'torch-h2d-pageable') return [...sizes];
  return sizes.filter((bytes, i) => SEED_COPY_BYTES.includes(bytes) || i === sizes.length - 1);
}

function plan(params: ParamValues, ctx: PlanContext): PlannedPoint[] {
  const repeats = num(params, 'repeats');
  const points: PlannedPoint[] = [];
  const sizes = transferSizes(num(params, 'minBytes'), num(params, 'maxBytes'));
  const largest = sizes.at(-1) ?? 0;
  for (const k of kinds(params, ctx.gpu?.kind === 'webgpu')) {
    for (const bytes of sizes) {
      // device→device copies read and write device memory: 2 bytes of traffic per byte copied.
      const traffic = k.direction === 'd2d' ? 2 * bytes : bytes;
      const sample = bytes / (BUS_GBPS_GUESS * 1e9) + 1e-5;
      points.push(
        gpuPoint(
          ctx,
          { key: `${k.series}@${bytes}`, series: k.series, name: pointName(LAB, k.series, n.bytes(bytes)), x: bytes, work: { flops: 0, bytes: traffic, elements: bytes }, sampleSeconds: sample },
          { op: 'copy', direction: k.direction, hostMemory: k.hostMemory, mode: k.mode, ...(k.upload ? { upload: k.upload } : {}), bytes, warmup: num(params, 'warmup'), seed: 1, ...sampledFor(k.series, bytes, largest, repeatsWithin(2, sample, 3, repeats)) },
        ),
      );
    }
  }
  const directions = strs(params, 'directions');
  const memories = strs(params, 'hostMemory');
  // PyTorch's copies are synchronous, each beside the engine's synchronous copy: planned where that one is.
  const sync = strs(params, 'modes').includes('sync');
  for (const s of PEER_SERIES.filter((s) => sync && directions.includes(s.direction) && memories.includes(s.hostMemory))) {
    for (const bytes of peerSizes(s.series, sizes)) {
      const sample = bytes / (BUS_GBPS_GUESS * 1e9) + 3e-5;
      const base = { key: `${s.series}@${bytes}`, series: s.series, name: pointName(LAB, s.series, n.bytes(bytes)), x: bytes, work: { flops: 0, bytes, elements: bytes }, sampleSeconds: sample };
      const m = { op: 'copy', direction: s.direction, hostMemory: s.hostMemory, mode: 'sync', bytes, warmup: num(params, 'warmup'), seed: 1, ...sampledFor(s.series, bytes, largest, repeatsWithin(2, sample, 3, repeats)) } as const;
      const point = peerPoint(ctx, base, m, { library: 'torch', code: s.series }, 'gpu');
      if (point) points.push(point);
    }
  }
  return points;
}

// Each PyTorch copy against the engine's at the largest size both measured, where the bus's bandwidth and not the
// fixed cost of a copy sets the time.
function agreements(points: readonly PointResult[]): Finding[] {
  return PEER_SERIES.flatMap((s) => sweepAgreement(points, { peer: s.series, ours: s.ours }, { peer: seriesName(s.series), ours: seriesName(s.ours) }, n.bytes, s.within) ?? []);
}

// The smallest copy's time against the time its bytes take at the series' best rate: when they are under a tenth of
// it, the copy is almost all fixed cost. Said only then, with both times, so the reader sees the arithmetic.
function latencyText(smallest: PointResult, peakGBps: number): Message | '' {
  const ms = smallest.stats?.median;
  if (ms === undefined || ms <= 0) return '';
  const bytesMs = smallest.work.bytes / (peakGBps * 1e6);
  if (bytesMs >= 0.1 * ms) return '';
  return m('latency', { size: n.bytes(smallest.x ?? 0), time: n.ms(ms), rate: n.rate(peakGBps, 'GB/s'), bytesTime: n.ms(bytesMs) });
}

// A device→device copy and a host→device copy of the same size, the largest both measured: the bus series is the
// fastest kind measured (pinned before pageable, sync before async).
function sameBytes(points: readonly PointResult[]): { bytes: number; inside: { ms: number }; across: { ms: number; kind: Kind } } | null {
  const across: Kind[] = (['pinned', 'pageable'] as const).flatMap((hostMemory) =>
    (['sync', 'async'] as const).map((mode) => ({ series: `h2d-${hostMemory}-${mode}`, direction: 'h2d' as const, hostMemory, mode })),
  );
  const d2d = seriesPoints(points, 'd2d').filter((p) => p.status === 'ok');
  for (const kind of across) {
    for (const inside of [...d2d].reverse()) {
      const bus = okMedian(find(points, kind.series, inside.x));
      const ms = okMedian(inside);
      if (bus !== null && ms !== null && ms > 0 && inside.x !== null) return { bytes: inside.x, inside: { ms }, across: { ms: bus, kind } };
    }
  }
  return null;
}

// WebGPU's two ways up at the largest size both measured: which took less time, as far as the two medians' intervals
// tell.
function uploadFinding(points: readonly PointResult[]): Finding | null {
  const written = seriesPoints(points, 'webgpu-h2d-write-buffer').filter((p) => p.status === 'ok');
  for (const w of [...written].reverse()) {
    const mapped = find(points, 'webgpu-h2d-mapped', w.x);
    const ew = estimateOf(w);
    const em = estimateOf(mapped);
    if (!ew || !em || w.x === null) continue;
    const order = compareTimes(ew, em);
    const values = { size: n.bytes(w.x), written: n.ms(ew.median), mapped: n.ms(em.median), ratio: n.times(order === 'slower' ? ew.median / em.median : em.median / ew.median) };
    const key = order === 'faster' ? 'uploadWriteFaster' : order === 'slower' ? 'uploadMappedFaster' : 'uploadLevel';
    return finding('webgpu-upload', m(key, values), em.median / ew.median, 'times');
  }
  return null;
}

function analyze(points: readonly PointResult[], params: ParamValues, _gpu: DeviceSummary | null): LabAnalysis {
  const a: LabAnalysis = { summary: {}, findings: [] };
  for (const k of kinds(params, points.some((p) => isWebgpuDevice(p.device)))) {
    const best = bestRate(points, k.series, 'gbps');
    a.summary[`${k.series}.peakGBps`] = best?.gbps ?? null;
    if (!best?.gbps) continue;
    // The smallest size reaching half the series' best bandwidth: below it, latency dominates.
    const peak = best.gbps;
    const half = seriesPoints(points, k.series).find((p) => p.status === 'ok' && (p.gbps ?? 0) >= peak / 2);
    a.summary[`${k.series}.halfPeakBytes`] = half?.x ?? null;
    const smallest = seriesPoints(points, k.series).find((p) => p.status === 'ok');
    // Traffic as the rate counts it: device→device copies read and write each byte.
    const series = k.direction === 'd2d' ? m('readWrite', { series: seriesName(k.series) }) : seriesName(k.series);
    const latency = smallest ? latencyText(smallest, peak) : '';
    a.findings.push(
      // Reached at the smallest size measured, half the rate says nothing of the sizes below it.
      withInterval(
        finding(`${k.series}-peak`, m(half && half === smallest ? 'peakHalfAtSmallest' : 'peak', { series, rate: n.rate(best.gbps, 'GB/s'), at: n.bytes(best.x ?? 0), half: n.bytes(half?.x ?? 0), latency }), best.gbps, 'GB/s'),
        rateInterval(best, 'gbps'),
      ),
    );
  }
  for (const direction of ['h2d', 'd2h'] as const) {
    const pinned = bestRate(points, `${direction}-pinned-sync`, 'gbps');
    const pageable = bestRate(points, `${direction}-pageable-sync`, 'gbps');
    if (pinned?.gbps && pageable?.gbps) {
      a.summary[`${direction}.pinnedOverPageable`] = pinned.gbps / pageable.gbps;
      const values = { direction: msg(`${LAB}.directions.${direction}`), ratio: n.times(pinned.gbps / pageable.gbps), pinned: n.rate(pinned.gbps, 'GB/s'), pageable: n.rate(pageable.gbps, 'GB/s') };
      const interval = quotientInterval(rateInterval(pinned, 'gbps'), rateInterval(pageable, 'gbps'));
      a.findings.push(withInterval(finding(`${direction}-pinned`, m('pinned', values), pinned.gbps / pageable.gbps, 'times'), interval));
    }
  }
  const d2d = bestRate(points, 'd2d', 'gbps');
  // Read against the peak the point carries (common/pure/gpu-peaks.ts: DRAM bandwidth, read and write counted).
  const d2dShare = d2d ? shareOfPeak(d2d) : null;
  if (d2d?.gbps && d2dShare !== null && d2d.peak) {
    a.summary['d2d.shareOfPeak'] = d2dShare;
    const values = { rate: n.rate(d2d.gbps, 'GB/s'), share: n.percent(d2dShare), peak: n.rate(d2d.peak.value, 'GB/s') };
    a.findings.push(finding('d2d-share-of-peak', m('d2dShare', values), d2d.gbps, 'GB/s'));
  }
  const busVsMemory = sameBytes(points);
  if (busVsMemory) {
    const { bytes, inside, across } = busVsMemory;
    const ratio = across.ms / inside.ms;
    a.summary['d2d.timeRatioToBus'] = ratio;
    // Both rates one way: bytes / time. The d2d series' own GB/s counts read + write, twice this.
    const values = {
      size: n.bytes(bytes),
      inside: n.ms(inside.ms),
      series: seriesName(across.kind.series),
      across: n.ms(across.ms),
      ratio: n.times(ratio),
      insideRate: n.rate(bytes / (inside.ms * 1e6), 'GB/s'),
      acrossRate: n.rate(bytes / (across.ms * 1e6), 'GB/s'),
    };
    a.findings.push(finding('bus-vs-memory', m('busVsMemory', values), ratio, 'times'));
  }
  const upload = uploadFinding(points);
  if (upload) a.findings.push(upload);
  a.findings.push(...agreements(points));
  return a;
}

export const transferLab: Lab = {
  descriptor: {
    id: 'transfer',
    ...aboutLab(LAB),
    parameters: [
      { kind: 'integer', name: 'minBytes', ...paramWords(LAB, 'minBytes'), unit: 'bytes', default: 1024, min: 4, max: 1 << 30 },
      { kind: 'integer', name: 'maxBytes', ...paramWords(LAB, 'maxBytes'), unit: 'bytes', default: 1 << 30, min: 4, max: LIMITS.bytes, atLeast: 'minBytes' },
      { kind: 'choice-list', name: 'directions', ...paramWords(LAB, 'directions'), unit: '', default: ['h2d', 'd2h', 'd2d'], choices: ['h2d', 'd2h', 'd2d'] },
      { kind: 'choice-list', name: 'hostMemory', ...paramWords(LAB, 'hostMemory'), unit: '', default: ['pageable', 'pinned'], choices: ['pageable', 'pinned'] },
      { kind: 'choice-list', name: 'modes', ...paramWords(LAB, 'modes'), unit: '', default: ['sync', 'async'], choices: ['sync', 'async'] },
      repeatsParam(20),
      warmupParam(2),
    ],
    presets: [
      { id: 'full', ...presetWords(LAB, 'full'), params: {} },
      { id: 'seed-003', ...presetWords(LAB, 'seed-003'), params: { minBytes: 40_000, maxBytes: 100_000_000 } },
      { id: 'quick', ...presetWords(LAB, 'quick'), params: { maxBytes: 67_108_864, directions: ['h2d', 'd2h'] } },
    ],
    kernels: [
      { kind: 'library', file: 'CUDA runtime', functions: ['cudaMemcpy', 'cudaMemcpyAsync', 'cudaMallocHost'] },
      { kind: 'library', file: 'WebGPU', functions: ['GPUQueue.writeBuffer', 'GPUBuffer.mapAsync', 'GPUCommandEncoder.copyBufferToBuffer'] },
      { kind: 'python', file: 'python/gpu_lab_peers/labs/transfer.py', functions: ['h2d_pageable', 'h2d_pinned', 'd2h_pageable', 'd2h_pinned'] },
    ],
    // Every kind of copy, in the catalog's order: direction, then host memory, then mode, device→device last; then
    // PyTorch's.
    series: [
      // A direction is a hue, pinned memory its deeper shade; PyTorch's copies in the shade of the engine's they match.
      ...Object.entries(SERIES)
        .filter(([key]) => !PEER_KEYS.has(key) && !WEBGPU_KEYS.has(key))
        .map(([key, label]) => ({ key, label, deviceKind: 'cuda' as const, ...copyColour(key) })),
      // WebGPU's copies in the hue of their direction.
      ...WEBGPU_KINDS.map((k) => ({ key: k.series, label: SERIES[k.series] ?? k.series, deviceKind: 'cuda' as const, webgpuOnly: true as const, family: k.direction })),
      ...PEER_SERIES.map((s) => ({ key: s.series, label: SERIES[s.series] ?? s.series, deviceKind: 'cuda' as const, peer: 'torch' as const, ...(s.addition ? { addition: true as const } : {}), ...copyColour(s.ours) })),
    ],
    headline: ['h2d-pinned', 'h2d-pinned-sync-peak', 'h2d-pageable-sync-peak', 'webgpu-h2d-write-buffer-peak'],
    chart: { x: { quantity: 'bytes', log: true }, y: { quantity: 'GB/s', log: true } },
  },
  plan,
  analyze,
};
