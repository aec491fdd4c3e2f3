// Lab text-to-image: seed 004's third notebook (Unit 10, Stable_Diffusion_GPU_vs_CPU) — how much faster is the GPU for
// generating an image, and why — as an honest stand-in that downloads nothing: the arithmetic of Stable Diffusion
// 1.5 with random weights in PyTorch (python/gpu_lab_peers/labs/text_to_image.py), a guided denoising step of its
// U-Net and its text encoder, on the CPU and on the GPU, in fp32 and fp16, at each batch asked. No image is made.
// Every point is checked against the same computed on the CPU in float64. The CPU's series stop at a batch
// (cpuMaxBatch) and a type (cpuDtypes) a laptop can take, the rest waived with the reason.
import type { LabDescriptor, ParamValues, SeriesDescriptor } from '../common/lab-descriptor.ts';
import type { MeasurementInput } from '../common/measurement.ts';
import { msg } from '../common/pure/message.ts';
import type { Message } from '../common/pure/message.ts';
import { peerWaivedWhy } from '../common/peer-protocol.ts';
import type { PeerLibrary } from '../common/peer-protocol.ts';
import type { PointWork } from '../common/run-record.ts';
import { clipTextFlops, clipTextParameters, unetFlops, unetParameters } from '../common/unet-work.ts';
import { aboutLab, paramWords, presetWords } from './lab-words.ts';
import type { Lab, PlanContext, PlannedPoint } from './lab.ts';
import { num, nums, strs } from './lab.ts';
import { CPU_GFLOPS_GUESS, GPU_GFLOPS_GUESS, cpuPoint, gpuPoint, repeatsParam, waivedFor, warmupParam } from './plan-helpers.ts';
import { analyzeTextToImage } from './text-to-image-analysis.ts';
import { labText as labTextEn } from '../common/pure/i18n/en/lab-text.ts';
import { TEXT_TO_IMAGE_LAB as LAB, textSeries, unetSeries, type Side, type TypeName } from './text-to-image-series.ts';

export const TEXT_TO_IMAGE_TYPES: readonly TypeName[] = ['fp32', 'fp16'];
const LABELS = labTextEn[LAB].series;
// 512 × 512 images: latents of 64 × 64 (the VAE's factor of 8), as the notebook's pipeline makes them.
const LATENT = 64;
// One model for the whole run: every point's weights and inputs come from this seed.
const SEED = 4;
const BYTES: Record<TypeName, number> = { fp32: 4, fp16: 2 };
// Python's start, building 860 M random weights and the float64 reference: once a run, on the first point.
const FIRST_POINT_SECONDS = 60;

// A guided step reads every weight of the U-Net once for the 2·batch rows it runs (the prompt and the empty prompt).
export function unetStepWork(batch: number, dtype: TypeName): PointWork {
  return { flops: unetFlops(LATENT, 2 * batch), bytes: unetParameters() * BYTES[dtype], elements: batch };
}

// The text encoder on one image's prompt and empty prompt.
export function textEncoderWork(dtype: TypeName): PointWork {
  return { flops: clipTextFlops(2), bytes: clipTextParameters() * BYTES[dtype], elements: 1 };
}

// Why a point of `library` cannot run, from what the run asked and the interpreter offers; null where it can.
function peerWhy(ctx: PlanContext, library: PeerLibrary, gpu: boolean): Message | null {
  if (!ctx.peers?.asked.includes(library)) return msg('reasons.textToImageNotAsked', { library });
  return peerWaivedWhy(ctx.peers.report, library, gpu);
}

function plan(params: ParamValues, ctx: PlanContext): PlannedPoint[] {
  const steps = num(params, 'steps');
  const batches = [...new Set(nums(params, 'batches'))].sort((a, b) => a - b);
  const dtypes = TEXT_TO_IMAGE_TYPES.filter((d) => strs(params, 'dtypes').includes(d));
  const cpuMaxBatch = num(params, 'cpuMaxBatch');
  const cpuDtypes = strs(params, 'cpuDtypes');
  const model = params.model === 'cached' ? 'cached' : 'random';
  const common = { latent: LATENT, steps, model, warmup: num(params, 'warmup'), repeats: num(params, 'repeats'), seed: SEED } as const;
  const points: PlannedPoint[] = [];
  // The GPU's points first (seconds), then the CPU's (minutes).
  for (const side of ['gpu', 'cpu'] as const satisfies readonly Side[]) {
    const gpu = side === 'gpu';
    for (const dtype of dtypes) {
      const cpuWhy = gpu || cpuDtypes.includes(dtype) ? null : msg('reasons.textToImageCpuDtype', { dtype });
      const text = textSeries(side, dtype);
      const textWork = textEncoderWork(dtype);
      const textM = { op: 'text-to-image', stage: 'text-encoder', batch: 1, dtype, ...common, peer: { library: 'torch', code: `text-${gpu ? 'cuda' : 'cpu'}` } } as const;
      points.push(
        withWhy(
          place(ctx, side, { key: text, series: text, name: msg(`${LAB}.point.text`, { series: msg(`${LAB}.series.${text}`) }), x: null, work: textWork, sampleSeconds: seconds(textWork, gpu) }, textM),
          peerWhy(ctx, 'torch', gpu) ?? peerWhy(ctx, 'transformers', false) ?? cpuWhy,
        ),
      );
      for (const batch of batches) {
        const series = unetSeries(side, dtype);
        const work = unetStepWork(batch, dtype);
        const m = { op: 'text-to-image', stage: 'unet', batch, dtype, ...common, peer: { library: 'torch', code: `unet-${gpu ? 'cuda' : 'cpu'}` } } as const;
        const batchWhy = gpu || batch <= cpuMaxBatch ? null : msg('reasons.textToImageCpuBatch', { batch, max: cpuMaxBatch });
        const base = { key: `${series}@${batch}`, series, name: msg(`${LAB}.point.step`, { series: msg(`${LAB}.series.${series}`), batch }), x: null, work, sampleSeconds: seconds(work, gpu) };
        // What the machine lacks first (nothing else matters then), then the CPU's bounds.
        points.push(withWhy(place(ctx, side, base, m), peerWhy(ctx, 'torch', gpu) ?? cpuWhy ?? batchWhy));
      }
    }
  }
  return lastLetsGo(firstBuilds(points));
}

const seconds = (work: PointWork, gpu: boolean): number => work.flops / ((gpu ? GPU_GFLOPS_GUESS : CPU_GFLOPS_GUESS) * 1e9);

type Fields = Extract<MeasurementInput, { op: 'text-to-image' }>;

// A point on its side: the GPU's read on the host's clock after a synchronise, as the notebook's %time reads a
// pipeline's call, and as the CPU's is read. Its sampling budget is its own guessed samples' time and a half (at
// least 5 s), not the first point's expected time, which also holds building the model.
function place(ctx: PlanContext, side: Side, base: Parameters<typeof cpuPoint>[0], m: Omit<Fields, 'device'>): PlannedPoint {
  const withBudget = { ...m, budgetSeconds: Math.min(3600, Math.max(5, 1.5 * base.sampleSeconds * (m.warmup + m.repeats))) };
  return side === 'gpu' ? gpuPoint(ctx, base, { ...withBudget, clock: 'host' }) : cpuPoint(base, withBudget, 1, ctx.cpu);
}

function withWhy(point: PlannedPoint, why: Message | null): PlannedPoint {
  return point.waived !== null || why === null ? point : waivedFor(point, why);
}

// The first measured point pays for Python and the model, and the first of each network for its float64 reference on
// the CPU (at half the CPU's guessed fp32 rate): their expected times say so, and so does the time they are given.
function firstBuilds(points: PlannedPoint[]): PlannedPoint[] {
  const first = points.findIndex((p) => p.measurement !== null);
  const firstOf = (stage: string): number => points.findIndex((p) => (p.measurement as { stage?: string } | null)?.stage === stage);
  const reference = new Map([
    [firstOf('unet'), unetFlops(LATENT, 2) / ((CPU_GFLOPS_GUESS / 2) * 1e9)],
    [firstOf('text-encoder'), clipTextFlops(2) / ((CPU_GFLOPS_GUESS / 2) * 1e9)],
  ]);
  return points.map((p, i) => {
    const extra = (i === first ? FIRST_POINT_SECONDS : 0) + (reference.get(i) ?? 0);
    return extra > 0 ? { ...p, expectedSeconds: p.expectedSeconds + extra } : p;
  });
}

// After the run's last measured point the worker lets go of the weights (4 GB of host memory).
function lastLetsGo(points: PlannedPoint[]): PlannedPoint[] {
  const last = points.map((p) => p.measurement !== null).lastIndexOf(true);
  return points.map((p, i) => (i === last && p.measurement ? { ...p, measurement: { ...p.measurement, releaseModel: true } as MeasurementInput } : p));
}

const SERIES: SeriesDescriptor[] = (['gpu', 'cpu'] as const).flatMap((side) =>
  TEXT_TO_IMAGE_TYPES.flatMap((dtype): SeriesDescriptor[] => {
    const deviceKind = side === 'gpu' ? 'cuda' : 'cpu';
    // The GPU read against the CPU's fp32, the CPU's default and the notebook's.
    const baseline = side === 'gpu' ? { baseline: unetSeries('cpu', 'fp32') } : {};
    const unet = unetSeries(side, dtype);
    const text = textSeries(side, dtype);
    return [
      { key: unet, label: LABELS[unet], deviceKind, peer: 'torch', ...baseline },
      { key: text, label: LABELS[text], deviceKind, peer: 'transformers', ...(side === 'gpu' ? { baseline: textSeries('cpu', 'fp32') } : {}) },
    ];
  }),
);

const descriptor: LabDescriptor = {
  id: LAB,
  ...aboutLab(LAB),
  parameters: [
    { kind: 'integer', name: 'steps', ...paramWords(LAB, 'steps'), unit: 'steps', default: 4, min: 1, max: 200 },
    { kind: 'integer-list', name: 'batches', ...paramWords(LAB, 'batches'), unit: 'images', default: [1, 4], min: 1, max: 16, maxItems: 5 },
    { kind: 'choice-list', name: 'dtypes', ...paramWords(LAB, 'dtypes'), unit: '', default: [...TEXT_TO_IMAGE_TYPES], choices: [...TEXT_TO_IMAGE_TYPES] },
    { kind: 'integer', name: 'cpuMaxBatch', ...paramWords(LAB, 'cpuMaxBatch'), unit: 'images', default: 1, min: 0, max: 16 },
    { kind: 'choice-list', name: 'cpuDtypes', ...paramWords(LAB, 'cpuDtypes'), unit: '', default: ['fp32'], choices: [...TEXT_TO_IMAGE_TYPES] },
    { kind: 'choice', name: 'model', ...paramWords(LAB, 'model'), unit: '', default: 'random', choices: ['random', 'cached'] },
    repeatsParam(6, 100),
    warmupParam(1),
  ],
  presets: [
    { id: 'seed-004', ...presetWords(LAB, 'seed-004'), params: {} },
    { id: 'gpu-only', ...presetWords(LAB, 'gpu-only'), params: { cpuMaxBatch: 0, batches: [1, 2, 4, 8] } },
    { id: 'cached-model', ...presetWords(LAB, 'cached-model'), params: { model: 'cached' } },
  ],
  kernels: [
    { kind: 'python', file: 'python/gpu_lab_peers/labs/sd15_unet.py', functions: ['UNet', 'Resnet', 'Transformer', 'Attention'] },
    { kind: 'python', file: 'python/gpu_lab_peers/labs/text_to_image.py', functions: ['Workload.call', 'Workload.reference', '_noise_prediction', '_text_encoder'] },
  ],
  series: SERIES,
  chart: { x: { quantity: 'category', log: false }, y: { quantity: 'ms', log: true } },
  headline: ['image-speedup', 'why', 'half'],
};

export const textToImageLab: Lab = { descriptor, plan, analyze: analyzeTextToImage };
