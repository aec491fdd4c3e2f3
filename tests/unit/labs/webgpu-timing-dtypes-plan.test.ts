// timing-pitfalls and dtypes on a WebGPU adapter as the runner plans and reads them. timing-pitfalls: the tiled WGSL
// GEMM timed with the host clock stopped at submit() and at onSubmittedWorkDone(), with timestamp queries where the
// adapter has them (waived with the reason where not), and cold with its pipeline made in the sample; each WebGPU
// sentence says which clock reads less only where the two medians' intervals separate (fast-check over medians), in
// both languages. dtypes: f32 and f16 on the tiled kernel, f16 waived without shader-f16, the other types waived with
// the reason, and a finding that says what ran.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { compareTimes, estimateOf } from '../../../main/common/pure/claims.ts';
import type { DeviceList } from '../../../main/common/devices.ts';
import { findLab } from '../../../main/labs/index.ts';
import { labMessage } from '../../../main/labs/lab-text.ts';
import type { PlannedPoint } from '../../../main/labs/lab.ts';
import { planContext } from '../../../main/runs/lab-runner.ts';
import { CPU, GPU, LAVAPIPE, pointFromPlan } from './synthetic.ts';

const list = (gpu: typeof LAVAPIPE | typeof GPU): DeviceList => ({ devices: [CPU, gpu], cudaReason: null, webgpuReason: null, blas: 'OpenBLAS' });
const env = (devices: DeviceList): { devices: DeviceList; versions: Record<string, string>; pid: number } => ({ devices, versions: {}, pid: 1 });
function lab(id: string): NonNullable<ReturnType<typeof findLab>> {
  const l = findLab(id);
  if (!l) throw new Error(`no lab ${id}`);
  return l;
}
const defaults = (id: string): Record<string, number | string | number[] | string[]> => Object.fromEntries(lab(id).descriptor.parameters.map((p) => [p.name, p.default]));
const withoutFeature = (feature: string): typeof LAVAPIPE => ({ ...LAVAPIPE, details: { ...LAVAPIPE.details, features: String(LAVAPIPE.details.features).split(', ').filter((f) => f !== feature).join(', ') } });

describe('timing-pitfalls on WebGPU', () => {
  const tp = lab('timing-pitfalls');
  const params = { ...defaults('timing-pitfalls'), n: 256 };
  const planned = tp.plan(params, planContext(env(list(LAVAPIPE)), 'webgpu:0'));
  const at = (series: string): PlannedPoint => {
    const p = planned.find((q) => q.series === series);
    if (!p) throw new Error(`no ${series}`);
    return p;
  };

  it('times the tiled WGSL GEMM on each clock, its cold point first, and none of cuBLAS', () => {
    const gpu = planned.filter((p) => p.device === 'webgpu:0').map((p) => [p.series, p.clock, p.measurement]);
    expect(gpu).toEqual([
      ['webgpu-cold', 'host', expect.objectContaining({ variant: 'tiled', cold: true, warmup: 0, repeats: 1, clock: 'host' })],
      ['webgpu-submit', 'host-nosync', expect.objectContaining({ variant: 'tiled', clock: 'host-nosync' })],
      ['webgpu-done', 'host', expect.objectContaining({ variant: 'tiled', clock: 'host' })],
      ['webgpu-timestamps', 'events', expect.objectContaining({ variant: 'tiled', clock: 'events' })],
    ]);
    expect(planned.some((p) => p.series.startsWith('gpu-'))).toBe(false);
    // On CUDA none of WebGPU's series.
    expect(tp.plan(params, planContext(env(list(GPU)), 'cuda:0')).some((p) => p.series.startsWith('webgpu-'))).toBe(false);
  });

  it('waives the timestamp queries where the adapter has none, saying so in both languages', () => {
    const none = tp.plan(params, planContext(env(list(withoutFeature('timestamp-query'))), 'webgpu:0')).find((p) => p.series === 'webgpu-timestamps');
    expect(none?.measurement).toBeNull();
    expect(none?.waived).toBe('this adapter has no timestamp queries (WebGPU’s timestamp-query feature)');
    expect(none?.waivedWhy && labMessage(none.waivedWhy, 'es')).toBe('este adaptador no tiene consultas de marca de tiempo (la característica timestamp-query de WebGPU)');
  });

  it('says the clock stopped at submit() reads less, and the host’s clock more than the timestamps, only where the intervals separate', () => {
    fc.assert(
      fc.property(fc.double({ min: 0.05, max: 100, noNaN: true }), fc.double({ min: 0.2, max: 5, noNaN: true }), fc.double({ min: 0.5, max: 2, noNaN: true }), (doneMs, submitRatio, stampRatio) => {
        const points = [pointFromPlan(at('webgpu-submit'), doneMs * submitRatio), pointFromPlan(at('webgpu-done'), doneMs), pointFromPlan(at('webgpu-timestamps'), doneMs * stampRatio)];
        const [submit, done, stamps] = points.map(estimateOf);
        if (!submit || !done || !stamps) throw new Error('no estimates');
        const findings = tp.analyze(points, params, LAVAPIPE).findings;
        const sync = findings.find((f) => f.id === 'webgpu-sync');
        const clock = findings.find((f) => f.id === 'webgpu-clock');
        if (!sync || !clock) throw new Error('a WebGPU finding is missing');
        const syncEn = labMessage(sync.message, 'en');
        expect(syncEn.includes('returns before it is done')).toBe(compareTimes(submit, done) === 'faster');
        expect(syncEn.includes('cannot be told apart')).toBe(compareTimes(submit, done) === 'indistinguishable');
        expect(labMessage(sync.message, 'es').includes('vuelve antes de que esté hecho')).toBe(compareTimes(submit, done) === 'faster');
        const clockEn = labMessage(clock.message, 'en');
        expect(clockEn.includes('adds the submission and the wait')).toBe(compareTimes(done, stamps) === 'slower');
        expect(clockEn.includes('cannot be told apart')).toBe(compareTimes(done, stamps) === 'indistinguishable');
        expect(clockEn.includes('disagree')).toBe(compareTimes(done, stamps) === 'faster');
      }),
    );
  });

  it('reads the cold dispatch against the warmed ones with what the cold sample holds', () => {
    const points = [pointFromPlan(at('webgpu-cold'), 300), pointFromPlan(at('webgpu-done'), 10)];
    const cold = tp.analyze(points, params, LAVAPIPE).findings.find((f) => f.id === 'webgpu-cold');
    if (!cold) throw new Error('no cold finding');
    expect(labMessage(cold.message, 'en')).toContain('The cold first GPU (WebGPU) call took 300 ms against 10 ms for a warmed one');
    expect(labMessage(cold.message, 'en')).toContain('The cold sample holds the making of a new pipeline');
    expect(labMessage(cold.message, 'es')).toContain('la creación de un pipeline nuevo');
  });
});

describe('dtypes on WebGPU', () => {
  const dt = lab('dtypes');
  const params = { ...defaults('dtypes'), n: 256 };

  it('runs f32 and f16 on the tiled WGSL kernel and waives the rest, and f16 without shader-f16, with the reason', () => {
    const planned = dt.plan(params, planContext(env(list(LAVAPIPE)), 'webgpu:0')).filter((p) => p.series === 'gpu');
    const by = Object.fromEntries(planned.map((p) => [p.key, p]));
    expect(by['gpu-fp32']?.measurement).toMatchObject({ op: 'gemm', dtype: 'fp32', variant: 'tiled' });
    expect(by['gpu-fp16']?.measurement).toMatchObject({ op: 'gemm', dtype: 'fp16', variant: 'tiled' });
    for (const d of ['fp64', 'tf32', 'bf16', 'int8']) {
      expect(by[`gpu-${d}`]?.waived).toBe(`WGSL has no ${d} arithmetic: on WebGPU the matrix product runs in f32, and in f16 where the adapter allows`);
      const why = by[`gpu-${d}`]?.waivedWhy;
      expect(why && labMessage(why, 'es')).toBe(`WGSL no tiene aritmética en ${d}: en WebGPU el producto de matrices se ejecuta en f32, y en f16 donde el adaptador lo permite`);
    }
    const noF16 = dt.plan(params, planContext(env(list(withoutFeature('shader-f16'))), 'webgpu:0')).find((p) => p.key === 'gpu-fp16');
    expect(noF16?.waived).toBe('this adapter lacks WebGPU’s shader-f16 feature, which WGSL’s f16 needs');
    // On CUDA, cuBLAS in every type.
    expect(dt.plan(params, planContext(env(list(GPU)), 'cuda:0')).filter((p) => p.series === 'gpu').every((p) => p.measurement?.op === 'gemm' && p.measurement.variant === 'cublas')).toBe(true);

    const points = planned.map((p) => pointFromPlan(p, 5));
    const f = dt.analyze(points, params, LAVAPIPE).findings.find((x) => x.id === 'webgpu-types');
    if (!f) throw new Error('no finding says what ran');
    expect(labMessage(f.message, 'en')).toContain('in f32 and f16 only: WGSL has no arithmetic in the other types. Its f16 product stores the matrices in f16 and sums in f32.');
    expect(labMessage(f.message, 'es')).toContain('solo en f32 y f16');
  });
});
