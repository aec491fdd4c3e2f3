// The text-to-image lab's findings: the notebook's question — how much faster is the GPU for generating an image,
// and why — answered from the run's points, every direction decided by the medians' 95 % intervals (claims.ts).
//
// One image is `steps` guided U-Net steps of its batch shared by the batch's images, and its text encoder once (the
// encoder's point is one image's): its time is steps · step ÷ batch + text. Its range is that sum taken at both
// ends of the two intervals, a range at least as wide as either interval allows. The cause given for the speedup is
// a measured one: the same counted FLOPs on both sides, so the ratio of the times is the ratio of the rates each
// sustained, read against each side's peak where there is one.
import type { DeviceSummary } from '../common/devices.ts';
import { compareTimes, estimateOf, timeRatio, type Estimate, type Order } from '../common/pure/claims.ts';
import type { ParamValues } from '../common/lab-descriptor.ts';
import { msg, n, type Message, type MessageValue } from '../common/pure/message.ts';
import { shareOfPeak, type PointResult } from '../common/run-record.ts';
import { TEXT_TO_IMAGE_TOLERANCE, unetParameters } from '../common/unet-work.ts';
import { finding } from './analysis.ts';
import type { LabAnalysis } from './lab.ts';
import { TEXT_TO_IMAGE_LAB as LAB, stepKey, textSeries, type Side, type TypeName } from './text-to-image-series.ts';

const m = (key: string, values?: Record<string, MessageValue>): Message => msg(`${LAB}.findings.${key}`, values);
const at = (points: readonly PointResult[], key: string): PointResult | undefined => points.find((p) => p.key === key);

function scaled(e: Estimate, c: number): Estimate {
  return { median: e.median * c, low: e.low * c, high: e.high * c, min: e.min * c, max: e.max * c, samples: e.samples };
}

function plus(a: Estimate, b: Estimate | null): Estimate {
  if (!b) return a;
  return { median: a.median + b.median, low: a.low + b.low, high: a.high + b.high, min: a.min + b.min, max: a.max + b.max, samples: Math.min(a.samples, b.samples) };
}

export interface ImageTime {
  image: Estimate;
  step: Estimate;
  // Whether the text encoder was measured and is in the image's time.
  text: boolean;
}

// One image's time on a side, in a type, at a batch; null where its U-Net step was not measured.
export function imageTime(points: readonly PointResult[], side: Side, dtype: TypeName, batch: number, steps: number): ImageTime | null {
  const step = estimateOf(at(points, stepKey(side, dtype, batch)));
  if (!step) return null;
  const text = estimateOf(at(points, textSeries(side, dtype)));
  return { image: plus(scaled(step, steps / batch), text), step, text: text !== null };
}

const batchesOf = (points: readonly PointResult[], side: Side, dtype: TypeName): number[] =>
  points
    .filter((p) => p.status === 'ok' && p.key.startsWith(`${side}-${dtype}@`))
    .map((p) => Number(p.key.split('@')[1]))
    .sort((a, b) => a - b);

const ratioValues = (order: Order, r: { value: number; low: number; high: number }): Record<string, MessageValue> =>
  order === 'slower' ? { ratio: n.times(1 / r.value), low: n.times(1 / r.high), high: n.times(1 / r.low) } : { ratio: n.times(r.value), low: n.times(r.low), high: n.times(r.high) };

const orderKey = (order: Order, keys: [string, string, string]): string => (order === 'faster' ? keys[0] : order === 'slower' ? keys[1] : keys[2]);

// The headline: the GPU's image against the CPU's, in fp32 on both where both ran (else the GPU's fp16), at the
// smallest batch both measured.
function imageSpeedup(a: LabAnalysis, points: readonly PointResult[], steps: number): { gpu: TypeName; batch: number } | null {
  for (const gpuType of ['fp32', 'fp16'] as const) {
    const batch = batchesOf(points, 'gpu', gpuType).find((b) => batchesOf(points, 'cpu', 'fp32').includes(b));
    if (batch === undefined) continue;
    const gpu = imageTime(points, 'gpu', gpuType, batch, steps);
    const cpu = imageTime(points, 'cpu', 'fp32', batch, steps);
    if (!gpu || !cpu) continue;
    const order = compareTimes(gpu.image, cpu.image);
    const r = timeRatio(gpu.image, cpu.image);
    a.summary.imageSpeedup = r.value;
    a.summary.gpuImageMs = gpu.image.median;
    a.summary.cpuImageMs = cpu.image.median;
    const text = gpu.text && cpu.text ? m('textIncluded') : m('textMissing');
    const values = { steps, batch, gpuType, gpu: n.ms(gpu.image.median), cpu: n.ms(cpu.image.median), gpuStep: n.ms(gpu.step.median), cpuStep: n.ms(cpu.step.median), text, ...ratioValues(order, r) };
    a.findings.push(finding('image-speedup', m(orderKey(order, ['imageFaster', 'imageSlower', 'imageLevel']), values), r.value, 'times', order === 'faster' ? 'info' : 'warning'));
    return { gpu: gpuType, batch };
  }
  return null;
}

// Why: the same counted work on both sides, at the rates each sustained, each against its peak where there is one.
function why(a: LabAnalysis, points: readonly PointResult[], headline: { gpu: TypeName; batch: number }): void {
  const gpu = at(points, stepKey('gpu', headline.gpu, headline.batch));
  const cpu = at(points, stepKey('cpu', 'fp32', headline.batch));
  if (!gpu?.gflops || !cpu?.gflops) return;
  const peakOf = (p: PointResult, key: string): Message | string => {
    const share = shareOfPeak(p);
    return share !== null && p.peak ? m(key, { share: n.percent(share), peak: n.rate(p.peak.value, 'GFLOP/s') }) : '';
  };
  const values = { gflop: n.sig(gpu.work.flops / 1e9), batch: headline.batch, gpuRate: n.rate(gpu.gflops, 'GFLOP/s'), cpuRate: n.rate(cpu.gflops, 'GFLOP/s'), gpuPeak: peakOf(gpu, 'gpuPeak'), cpuPeak: peakOf(cpu, 'cpuPeak'), rates: n.times(gpu.gflops / cpu.gflops) };
  a.findings.push(finding('why', m('why', values), gpu.gflops / cpu.gflops, 'times'));
}

const memoryOf = (p: PointResult | undefined): MessageValue | null => (p?.memory ? n.bytes(p.memory.bytes) : null);

// fp16 against fp32 on the GPU at the smallest batch both measured, with the memory each held.
function half(a: LabAnalysis, points: readonly PointResult[]): void {
  const batch = batchesOf(points, 'gpu', 'fp16').find((b) => batchesOf(points, 'gpu', 'fp32').includes(b));
  if (batch === undefined) return;
  const p16 = at(points, stepKey('gpu', 'fp16', batch));
  const p32 = at(points, stepKey('gpu', 'fp32', batch));
  const e16 = estimateOf(p16);
  const e32 = estimateOf(p32);
  if (!e16 || !e32) return;
  const order = compareTimes(e16, e32);
  const r = timeRatio(e16, e32);
  const mem16 = memoryOf(p16);
  const mem32 = memoryOf(p32);
  const memory = mem16 !== null && mem32 !== null ? m('halfMemory', { half: mem16, single: mem32 }) : '';
  const values = { batch, half: n.ms(e16.median), single: n.ms(e32.median), memory, ...ratioValues(order, r) };
  a.summary.halfSpeedup = r.value;
  a.findings.push(finding('half', m(orderKey(order, ['halfFaster', 'halfSlower', 'halfLevel']), values), r.value, 'times'));
}

// A batch's step shared by its images against one image's step, on the GPU, at the largest batch measured.
function batching(a: LabAnalysis, points: readonly PointResult[]): void {
  for (const dtype of ['fp16', 'fp32'] as const) {
    const batches = batchesOf(points, 'gpu', dtype);
    const largest = batches.at(-1);
    if (largest === undefined || largest <= 1 || !batches.includes(1)) continue;
    const one = estimateOf(at(points, stepKey('gpu', dtype, 1)));
    const many = estimateOf(at(points, stepKey('gpu', dtype, largest)));
    if (!one || !many) continue;
    const each = scaled(many, 1 / largest);
    const order = compareTimes(each, one);
    const r = timeRatio(each, one);
    const values = { dtype, batch: largest, step: n.ms(many.median), perImage: n.ms(each.median), one: n.ms(one.median), ...ratioValues(order, r) };
    a.summary.batchGain = r.value;
    a.findings.push(finding('batch', m(orderKey(order, ['batchLess', 'batchMore', 'batchLevel']), values), r.value, 'times'));
    return;
  }
}

// The memory every measured point held at its peak.
function memory(a: LabAnalysis, points: readonly PointResult[]): void {
  const items = points.filter((p) => p.status === 'ok' && p.memory && p.name).map((p) => m(p.memory?.where === 'host' ? 'memoryHost' : 'memoryDevice', { point: p.name ?? p.label, bytes: n.bytes(p.memory?.bytes ?? 0) }));
  if (items.length === 0) return;
  const list = items.slice(1).reduce<Message>((acc, item) => m('memoryList', { item: acc, rest: item }), items[0] ?? m('memoryList'));
  const largest = Math.max(...points.map((p) => (p.status === 'ok' && p.memory?.where === 'device' ? p.memory.bytes : 0)));
  if (largest > 0) a.summary.gpuMemoryBytes = largest;
  a.findings.push(finding('memory', m('memory', { list }), largest > 0 ? largest : null, 'bytes'));
}

// The check the lab stands on: one step on the GPU in fp32 at batch 1 against the CPU's float64.
function check(a: LabAnalysis, points: readonly PointResult[]): void {
  const p = at(points, stepKey('gpu', 'fp32', 1));
  const v = p?.verification;
  if (!p || !v) return;
  const error = v.relativeError === null ? m('errorUnknown') : n.sig(v.relativeError, 2);
  const values = { error, tolerance: n.sig(TEXT_TO_IMAGE_TOLERANCE.fp32, 1) };
  a.findings.push(finding('check', m(v.passed ? 'check' : 'checkFailed', values), v.relativeError, 'none', v.passed ? 'info' : 'warning'));
}

// What ran: random weights, or SD 1.5's own from the local cache (the implementation names it); no image either way.
function scope(a: LabAnalysis, points: readonly PointResult[], params: ParamValues): void {
  const cached = points.map((p) => /([\w.-]+\/[\w.-]+) from the local cache/.exec(p.implementation ?? '')?.[1]).find((x) => x !== undefined);
  const message = cached ? m('scopeCached', { model: cached }) : m(params.model === 'cached' ? 'scopeCachedMissing' : 'scopeRandom', { params: n.count(unetParameters()) });
  a.findings.push(finding('scope', message));
}

export function analyzeTextToImage(points: readonly PointResult[], params: ParamValues, _gpu: DeviceSummary | null): LabAnalysis {
  const a: LabAnalysis = { summary: {}, findings: [] };
  const steps = typeof params.steps === 'number' ? params.steps : 1;
  const headline = imageSpeedup(a, points, steps);
  if (headline) why(a, points, headline);
  half(a, points);
  batching(a, points);
  check(a, points);
  memory(a, points);
  scope(a, points, params);
  return a;
}
