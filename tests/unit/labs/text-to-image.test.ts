// The text-to-image lab (Unit 10's third notebook) without PyTorch: its counts against the real models' sizes, its plan
// for any parameters and machine, and its findings on generated runs in English and Spanish — each direction said only
// where the intervals separate, the run always saying it used random weights and made no image. Where torch is
// installed the Python model's shapes are checked too (skipped here, saying why); on this machine a run waives every
// series with the reason. The GPU machine runs it for real (tests/gpu/unit10.test.ts).
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { createLabHost } from '../../../main/app/lab-host.ts';
import { compareTimes, estimateOf, type Estimate } from '../../../main/common/pure/claims.ts';
import { MEASUREMENT } from '../../../main/common/measurement.ts';
import type { FormattedNumber, Message } from '../../../main/common/pure/message.ts';
import { validateParams } from '../../../main/common/params.ts';
import type { PeerLibrary } from '../../../main/common/peer-protocol.ts';
import type { PointResult } from '../../../main/common/run-record.ts';
import { clipTextFlops, clipTextParameters, unetFlops, unetParameters } from '../../../main/common/unet-work.ts';
import { peersDir } from '../../../main/host/python-worker.ts';
import { findingText, labMessage } from '../../../main/labs/lab-text.ts';
import type { PlanContext, PlannedPoint } from '../../../main/labs/lab.ts';
import { textToImageLab } from '../../../main/labs/text-to-image.ts';
import { measuredPoint, waivedPoint } from '../../../main/runs/point-result.ts';
import { CPU_ONLY, GPU, WITH_GPU, peersFound } from './synthetic.ts';

const lab = textToImageLab;
const params = (given: Record<string, unknown> = {}) => validateParams('text-to-image', lab.descriptor.parameters, given as never);
const withPeers = (ctx: PlanContext, asked: PeerLibrary[] = ['torch', 'transformers'], found = asked): PlanContext => ({
  ...ctx,
  peers: { asked, report: { ...peersFound(found, ctx.gpu !== null), ...(found.length === 0 ? {} : {}) } },
});

describe('the network’s counts', () => {
  it('are the real models’ sizes: SD 1.5’s U-Net 859 520 964 parameters, CLIP ViT-L/14’s text encoder 123 060 480', () => {
    expect(unetParameters()).toBe(859_520_964);
    expect(clipTextParameters()).toBe(123_060_480);
  });

  it('a guided step at 64 × 64 is about 0.8 TFLOP an image’s row, linear in the rows; attention makes it grow faster than the pixels', () => {
    expect(unetFlops(64, 1) / 1e9).toBeGreaterThan(700);
    expect(unetFlops(64, 1) / 1e9).toBeLessThan(900);
    expect(unetFlops(64, 8)).toBeCloseTo(8 * unetFlops(64, 1), -3);
    // Self-attention's q·kᵀ grows with the square of the pixels: four times the pixels, more than four times the work.
    expect(unetFlops(64, 1) / unetFlops(32, 1)).toBeGreaterThan(4);
    expect(clipTextFlops(2)).toBe(2 * clipTextFlops(1));
  });
});

const BATCHES = fc.uniqueArray(fc.integer({ min: 1, max: 16 }), { minLength: 1, maxLength: 5 });
const TYPES = fc.subarray(['fp32', 'fp16'], { minLength: 1 });
const PARAMS = fc.record({ batches: BATCHES, dtypes: TYPES, cpuDtypes: fc.subarray(['fp32', 'fp16'], { minLength: 1 }), cpuMaxBatch: fc.integer({ min: 0, max: 16 }), steps: fc.integer({ min: 1, max: 200 }) });

describe('the plan', () => {
  it('a U-Net point per side, type and batch, and a text encoder per side and type; the CPU waived past its batch and types, saying so', () => {
    fc.assert(
      fc.property(PARAMS, fc.boolean(), (given, gpu) => {
        const planned = lab.plan(params(given), withPeers(gpu ? WITH_GPU : CPU_ONLY));
        for (const side of ['gpu', 'cpu'] as const) {
          for (const dtype of given.dtypes) {
            const text = planned.filter((p) => p.key === `${side}-text-${dtype}`);
            expect(text).toHaveLength(1);
            for (const batch of given.batches) {
              const [point, ...more] = planned.filter((p) => p.key === `${side}-${dtype}@${batch}`);
              expect(more).toEqual([]);
              expect(point).toBeDefined();
              if (!point) continue;
              const cpuWaived = side === 'cpu' && (!given.cpuDtypes.includes(dtype) || batch > given.cpuMaxBatch);
              // What the machine lacks is said before the CPU's bounds.
              if (side === 'gpu' && !gpu) expect(point.waived).toBe(CPU_ONLY.gpuWaivedReason);
              else if (cpuWaived) {
                expect(point.measurement).toBeNull();
                const why = point.waivedWhy?.key;
                expect(why).toBe(given.cpuDtypes.includes(dtype) ? 'reasons.textToImageCpuBatch' : 'reasons.textToImageCpuDtype');
                for (const locale of ['en', 'es'] as const) expect(labMessage(point.waivedWhy as Message, locale)).toContain(given.cpuDtypes.includes(dtype) ? String(batch) : dtype);
              } else {
                expect(MEASUREMENT.safeParse(point.measurement).success).toBe(true);
                expect(point.measurement).toMatchObject({ op: 'text-to-image', stage: 'unet', batch, dtype, steps: given.steps, latent: 64, peer: { library: 'torch' } });
                expect(point.work.flops).toBe(unetFlops(64, 2 * batch));
                // The GPU read as the notebook reads its pipeline: the host's clock after a synchronise.
                if (side === 'gpu') expect(point.measurement).toMatchObject({ clock: 'host' });
              }
            }
          }
        }
        // The worker lets the weights go after the last measured point, and only then.
        const releasing = planned.filter((p) => (p.measurement as { releaseModel?: boolean } | null)?.releaseModel);
        const measured = planned.filter((p) => p.measurement);
        expect(releasing).toEqual(measured.length ? [measured.at(-1)] : []);
      }),
      { numRuns: 150, seed: 47 },
    );
  });

  it('without PyTorch every point is waived with the interpreter’s reason; without transformers, the text encoder only', () => {
    const noTorch = lab.plan(params(), withPeers(WITH_GPU, ['torch', 'transformers'], ['transformers']));
    expect(noTorch.every((p) => p.measurement === null && p.waivedWhy)).toBe(true);
    const noText = lab.plan(params(), withPeers(WITH_GPU, ['torch', 'transformers'], ['torch']));
    expect(noText.filter((p) => p.key.includes('text')).every((p) => p.measurement === null)).toBe(true);
    expect(noText.filter((p) => p.key.startsWith('gpu-') && !p.key.includes('text')).every((p) => p.measurement !== null)).toBe(true);
    const notAsked = lab.plan(params(), withPeers(WITH_GPU, []));
    expect(notAsked.every((p) => p.waivedWhy?.key === 'reasons.textToImageNotAsked')).toBe(true);
    expect(labMessage(notAsked[0]?.waivedWhy as Message, 'es')).toMatch(/no pidió torch/);
  });

  it('its CPU part with the defaults stays within a few minutes on a slow CPU (the engine’s guess of 100 GFLOP/s)', () => {
    const seconds = lab.plan(params(), withPeers(CPU_ONLY)).reduce((s, p) => s + (p.measurement ? p.expectedSeconds : 0), 0);
    expect(seconds).toBeLessThan(240);
  });
});

// Eight samples spread ±`spread` around `median`, verified: a point with an interval.
function point(planned: PlannedPoint, median: number, spread: number, memoryBytes?: number): PointResult {
  if (!planned.measurement) return waivedPoint(planned);
  const hostMs = [-1, -0.75, -0.5, -0.25, 0.25, 0.5, 0.75, 1].map((k) => median * (1 + k * spread));
  return measuredPoint(planned, {
    clock: planned.clock,
    hostMs,
    deviceMs: null,
    executionsPerSample: 1,
    implementation: 'torch 2.11; SD 1.5’s U-Net shapes, random weights (Python 3.12.3)',
    threads: 1,
    verification: { method: 'sampled', checked: 16384, total: 16384, relativeError: 3e-6, tolerance: 5e-4, passed: true, mismatches: [] },
    telemetry: null,
    ...(memoryBytes ? { memory: { bytes: memoryBytes, where: planned.device === 'cpu' ? ('host' as const) : ('device' as const) } } : {}),
  });
}

const num = (v: unknown): number => (v as FormattedNumber).num;
const imageOf = (points: PointResult[], side: string, dtype: string, batch: number, steps: number): Estimate | null => {
  const step = estimateOf(points.find((p) => p.key === `${side}-${dtype}@${batch}`));
  const text = estimateOf(points.find((p) => p.key === `${side}-text-${dtype}`));
  if (!step) return null;
  const k = steps / batch;
  const t = text ?? { median: 0, low: 0, high: 0, min: 0, max: 0, samples: 0 };
  return { median: step.median * k + t.median, low: step.low * k + t.low, high: step.high * k + t.high, min: 0, max: 0, samples: step.samples };
};

describe('the findings on generated runs', () => {
  const RUN = fc.record({
    steps: fc.integer({ min: 1, max: 60 }),
    batches: fc.constantFrom([1], [1, 4], [1, 2, 8]),
    // The CPU's step against the GPU's: from far slower to a little faster.
    cpuStep: fc.double({ min: 200, max: 20_000, noNaN: true }),
    gpuStep: fc.double({ min: 20, max: 25_000, noNaN: true }),
    half: fc.double({ min: 0.3, max: 1.5, noNaN: true }),
    batchScale: fc.double({ min: 0.3, max: 1.2, noNaN: true }),
    spread: fc.double({ min: 0.001, max: 0.2, noNaN: true }),
    text: fc.double({ min: 1, max: 400, noNaN: true }),
  });

  it('the GPU’s image against the CPU’s, faster or slower only where the intervals separate, fp16 and batches likewise; in English and Spanish', () => {
    fc.assert(
      fc.property(RUN, (r) => {
        const given = params({ steps: r.steps, batches: r.batches });
        const planned = lab.plan(given, withPeers(WITH_GPU));
        const points = planned.map((p) => {
          const gpu = p.device !== 'cpu';
          const batch = Number(p.key.split('@')[1] ?? 1);
          const base = p.key.includes('text') ? r.text * (gpu ? 0.05 : 1) : (gpu ? r.gpuStep : r.cpuStep) * Math.pow(batch, r.batchScale);
          return point(p, p.key.includes('fp16') ? base * r.half : base, r.spread, gpu ? 3e9 * batch : 5e9);
        });
        const a = lab.analyze(points, given, GPU);
        const f = (id: string) => a.findings.find((x) => x.id === id);
        const gpu = imageOf(points, 'gpu', 'fp32', 1, r.steps);
        const cpu = imageOf(points, 'cpu', 'fp32', 1, r.steps);
        if (!gpu || !cpu) throw new Error('batch 1 is measured on both sides');
        const order = compareTimes(gpu, cpu);
        const image = f('image-speedup');
        expect(image?.message.key).toBe(`text-to-image.findings.${order === 'faster' ? 'imageFaster' : order === 'slower' ? 'imageSlower' : 'imageLevel'}`);
        expect(num(image?.message.values?.gpu)).toBeCloseTo(gpu.median, 6);
        if (order !== 'indistinguishable') expect(num(image?.message.values?.ratio)).toBeGreaterThanOrEqual(1);
        const half = f('half');
        const e16 = estimateOf(points.find((p) => p.key === 'gpu-fp16@1'));
        const e32 = estimateOf(points.find((p) => p.key === 'gpu-fp32@1'));
        if (!e16 || !e32) throw new Error('both types are measured');
        const halfOrder = compareTimes(e16, e32);
        expect(half?.message.key).toBe(`text-to-image.findings.${halfOrder === 'faster' ? 'halfFaster' : halfOrder === 'slower' ? 'halfSlower' : 'halfLevel'}`);
        expect(f('batch') !== undefined).toBe(r.batches.length > 1);
        expect(f('why')?.value).toBeCloseTo((points.find((p) => p.key === 'gpu-fp32@1')?.gflops ?? 0) / (points.find((p) => p.key === 'cpu-fp32@1')?.gflops ?? 1), 9);
        for (const finding of a.findings) {
          for (const locale of ['en', 'es'] as const) expect(findingText(finding, locale)).not.toMatch(/[{}]|undefined|NaN/);
        }
        expect(findingText(f('scope') ?? a.findings[0] ?? image ?? { id: '', message: { key: '' }, value: null, unit: 'none', tone: 'info' }, 'en')).toMatch(/^Random weights: no image is produced/);
        expect(findingText(f('memory') ?? a.findings[0] ?? { id: '', message: { key: '' }, value: null, unit: 'none', tone: 'info' }, 'es')).toMatch(/GiB de memoria de la GPU/);
      }),
      { numRuns: 200, seed: 4 },
    );
  });

  it('says random weights and no image on every run, measured or not, in both languages; the cached model by its name where one ran', () => {
    const waived = lab.plan(params(), withPeers(CPU_ONLY, [])).map((p) => waivedPoint(p));
    const a = lab.analyze(waived, params(), null);
    expect(a.findings.map((f) => f.id)).toEqual(['scope']);
    const scope = a.findings[0];
    if (!scope) throw new Error('scope');
    expect(findingText(scope, 'en')).toMatch(/Random weights: no image is produced\. What is timed is the network’s arithmetic only/);
    expect(findingText(scope, 'es')).toMatch(/Pesos aleatorios: no se produce ninguna imagen/);
    const planned = lab.plan(params({ model: 'cached' }), withPeers(WITH_GPU));
    const cached = planned.map((p) => ({ ...point(p, 10, 0.01), implementation: 'torch 2.11; stable-diffusion-v1-5/stable-diffusion-v1-5 from the local cache (diffusers 0.36)' }));
    const said = lab.analyze(cached, params({ model: 'cached' }), GPU).findings.find((f) => f.id === 'scope');
    expect(said && findingText(said, 'en')).toMatch(/own weights, from this machine’s Hugging Face cache \(stable-diffusion-v1-5\/stable-diffusion-v1-5\); still no image is produced/);
  });
});

// The model itself, where this machine's python3 has torch (the GPU machine's venv does; this one does not).
const torchHere = spawnSync('python3', ['-c', 'import torch'], { encoding: 'utf8' });
const noTorch = torchHere.status === 0 ? null : `torch is not installed for python3 here (${torchHere.stderr.trim().split('\n').at(-1) ?? ''}): the shapes are checked where it is, and on the GPU machine (tests/gpu/unit10.test.ts)`;

describe('the Python model', () => {
  it('has SD 1.5’s U-Net shapes: 859 520 964 parameters, 4 × 64 × 64 latents in and out at every batch', (ctx) => {
    if (noTorch) {
      ctx.skip(noTorch);
      return;
    }
    const script = [
      'import torch, json',
      'from gpu_lab_peers.labs import sd15_unet',
      'with torch.device("meta"):',
      '    m = sd15_unet.build(torch, 4)',
      '    out = m(torch.zeros(3, 4, 64, 64), torch.tensor([999, 999, 999]), torch.zeros(3, 77, 768))',
      'print(json.dumps({"params": sum(p.numel() for p in m.parameters()), "shape": list(out.shape)}))',
    ].join('\n');
    const r = spawnSync('python3', ['-c', script], { encoding: 'utf8', env: { ...process.env, PYTHONPATH: peersDir() ?? '' } });
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ params: 859_520_964, shape: [3, 4, 64, 64] });
  });
});

describe('a run on this machine', () => {
  it('waives every series with the interpreter’s reason where torch is missing, and still says what the lab is', async () => {
    if (!noTorch) return;
    const host = createLabHost({ dataDir: mkdtempSync(join(tmpdir(), 'gpu-lab-t2i-')), warn: () => undefined });
    try {
      const { runId } = await host.runs.startRun({ lab: 'text-to-image', device: 'cpu', params: {} });
      await host.runs.whenIdle();
      const run = await host.runs.getRun(runId);
      expect(run.status).toBe('waived');
      expect(run.peers).toEqual(['torch', 'transformers']);
      for (const p of run.points) expect(p.status, p.key).toBe('waived');
      expect(run.points.filter((p) => p.device === 'cpu' && p.key === 'cpu-fp32@1').map((p) => p.reason)).toEqual([expect.stringMatching(/^torch is not installed for \S+ \(/)]);
      expect(run.findings.find((f) => f.id === 'scope')).toBeDefined();
    } finally {
      await host.dispose();
    }
  });
});
