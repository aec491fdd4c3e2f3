import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { validateParams } from '../../../main/common/params.ts';
import { MEASUREMENT } from '../../../main/common/measurement.ts';
import { LABS, findLab } from '../../../main/labs/index.ts';
import type { ParamValues } from '../../../main/common/lab-descriptor.ts';
import type { Lab } from '../../../main/labs/lab.ts';
import type { DeviceSummary } from '../../../main/common/devices.ts';
import { formatPercent, formatRate } from '../../../main/common/pure/format.ts';
import { shareOfPeak, type Finding, type PointResult } from '../../../main/common/run-record.ts';
import { findingText } from '../../../main/labs/lab-text.ts';
import { CPU, CPU_ONLY, GPU, WITH_GPU, asRunnerPlans, pointFromPlan } from './synthetic.ts';

// A finding's sentence in English, as a reader of the English app reads it.
const en = (f: Finding | undefined): string | undefined => (f ? findingText(f, 'en') : undefined);

function defaults(lab: Lab) {
  return validateParams(lab.descriptor.id, lab.descriptor.parameters, {});
}

function lab(id: string): Lab {
  const found = findLab(id);
  if (!found) throw new Error(id);
  return found;
}

describe('every lab', () => {
  it.each(LABS.map((l) => [l.descriptor.id, l] as const))('%s plans valid measurements and waives GPU series without a GPU', (_id, l) => {
    const withGpu = l.plan(defaults(l), asRunnerPlans(l, WITH_GPU));
    expect(withGpu.length).toBeGreaterThan(0);
    for (const p of withGpu) {
      // A series the defaults leave out on the CPU is waived with the reason (text-to-image's CPU stops at a batch).
      if (p.device === 'cpu' && p.waivedWhy) continue;
      expect(p.measurement, p.key).not.toBeNull();
      expect(MEASUREMENT.safeParse(p.measurement).success, p.key).toBe(true);
    }
    expect(new Set(withGpu.map((p) => p.key)).size).toBe(withGpu.length);
    const cpuOnly = l.plan(defaults(l), asRunnerPlans(l, CPU_ONLY));
    for (const p of cpuOnly) {
      if (p.device === 'cpu') expect(p.measurement !== null || p.waivedWhy?.key.startsWith('reasons.textToImageCpu')).toBe(true);
      else expect(p.waived).toBe(CPU_ONLY.gpuWaivedReason);
    }
    expect(l.descriptor.explanation.join(' ').length).toBeGreaterThan(200);
  });

  it.each(LABS.map((l) => [l.descriptor.id, l] as const))('%s gives each finding its own id on a full sample', (_id, l) => {
    // Every point measured, each series at its own speed so that every comparison has a winner.
    const series = [...new Set(l.plan(defaults(l), asRunnerPlans(l, WITH_GPU)).map((p) => p.series))];
    const points = l.plan(defaults(l), asRunnerPlans(l, WITH_GPU)).map((p) => {
      const speed = 1 + 0.37 * series.indexOf(p.series);
      return pointFromPlan(p, (0.01 + p.work.flops / 1e10 + p.work.bytes / 1e8) / speed);
    });
    const ids = l.analyze(points, defaults(l), GPU).findings.map((f) => f.id);
    expect(ids.length).toBeGreaterThan(2);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  it('keeps the CPU part of each lab with defaults to a few minutes on two cores', () => {
    let seconds = 0;
    for (const l of LABS) seconds += l.plan(defaults(l), CPU_ONLY).reduce((s, p) => s + (p.measurement ? p.expectedSeconds : 0), 0);
    expect(seconds).toBeLessThan(300);
  });
});

describe('seed defaults', () => {
  it('matmul multiplies 7000×7000 float32 and vector-function evaluates 5 M float64 with a=3.5, b=2.8, c=10', () => {
    expect(defaults(lab('matmul')).n).toBe(7000);
    expect(defaults(lab('vector-function'))).toMatchObject({ elements: 5_000_000, a: 3.5, b: 2.8, c: 10 });
    expect(defaults(lab('matmul-breakeven')).sizes).toEqual([50, 100, 200, 500, 1000, 2000, 5000]);
  });

  it('transfer spans 1 KiB to 1 GiB in 11 sizes per series, with the article’s own three copies (0.04, 4 and 100 MB) among them', () => {
    const planned = lab('transfer').plan(defaults(lab('transfer')), WITH_GPU).filter((p) => p.series === 'h2d-pinned-sync');
    const sweep = [1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576].map((k) => k * 1024);
    expect(planned.map((p) => p.x)).toEqual([...sweep, 40_000, 4_000_000, 100_000_000].sort((a, b) => a - b));
    // The article's preset runs exactly its sizes at its ends, and its middle one.
    const seed = lab('transfer').descriptor.presets.find((p) => p.id === 'seed-003')?.params ?? {};
    const sizes = lab('transfer').plan({ ...defaults(lab('transfer')), ...seed }, WITH_GPU).filter((p) => p.series === 'h2d-pageable-sync').map((p) => p.x);
    for (const bytes of [40_000, 4_000_000, 100_000_000]) expect(sizes).toContain(bytes);
  });

  it('elementwise-breakeven measures 10² … 10⁸ for add, mul and exp', () => {
    const planned = lab('elementwise-breakeven').plan(defaults(lab('elementwise-breakeven')), WITH_GPU).filter((p) => p.series === 'add-cpu');
    // Two sizes a decade: 10², 10^2.5, 10³ … 10⁸.
    expect(planned.map((p) => p.x)).toEqual([100, 316, 1000, 3162, 10000, 31623, 100000, 316228, 1000000, 3162278, 10000000, 31622777, 100000000]);
  });
});

describe('the CPU series of the break-even labs', () => {
  it('run on every logical core by default (no count: the compute host takes them all) and on the threads asked for otherwise; the GPU series take none', () => {
    for (const id of ['elementwise-breakeven', 'matmul-breakeven']) {
      const l = lab(id);
      const threadsOf = (params: ParamValues, device: string): unknown[] =>
        l.plan({ ...defaults(l), ...params }, { ...WITH_GPU, cpuThreads: 12 }).filter((p) => p.device === device).map((p) => (p.measurement as { threads?: number }).threads);
      expect(new Set(threadsOf({}, 'cpu'))).toEqual(new Set([undefined]));
      expect(new Set(threadsOf({ threads: 1 }, 'cpu'))).toEqual(new Set([1]));
      expect(new Set(threadsOf({ threads: 1 }, GPU.id))).toEqual(new Set([undefined]));
      // The parameter is checked like every other: a negative count is refused with its name.
      expect(() => validateParams(id, l.descriptor.parameters, { threads: -1 })).toThrow(/threads/);
    }
  });
});

describe('analyses on synthetic samples', () => {
  it('elementwise-breakeven finds the 2× size and the speedup at 1 M', () => {
    const l = lab('elementwise-breakeven');
    const params = { ...defaults(l), ops: ['exp'], pointsPerDecade: 1 };
    // CPU: 10 ns per element; GPU resident: 10 µs flat + 0.1 ns per element. Speedups 0.99 at 10³ and 9.1 at 10⁴:
    // 2× lies log-log between them, at 10^(3 + log(2/0.99)/log(9.09/0.99)) ≈ 2.08 k elements.
    const points = l.plan(params, WITH_GPU).map((p) => {
      const n = p.x ?? 0;
      const ms = p.series === 'exp-cpu' ? n * 1e-5 : p.series === 'exp-gpu-resident' ? 0.01 + n * 1e-7 : 0.05 + n * 1e-5;
      return pointFromPlan(p, ms);
    });
    const a = l.analyze(points, params, GPU);
    const size = a.summary['exp.gpu-resident.breakEvenSize'] ?? 0;
    expect(size).toBeCloseTo(2075, -1);
    // At 10⁶: 10 ms against 0.01 + 0.1 ms.
    expect(a.summary['exp.gpu-resident.speedupAt1M']).toBeCloseTo(10 / 0.11, 6);
    // The samples' spread puts the crossing somewhere around it, and the sentence gives that range too, each to the two
    // significant digits an interpolation is known to.
    const low = a.summary['exp.gpu-resident.breakEvenSizeLow'] ?? Number.NaN;
    const high = a.summary['exp.gpu-resident.breakEvenSizeHigh'] ?? Number.NaN;
    expect(low).toBeLessThan(size);
    expect(high).toBeGreaterThan(size);
    expect(a.findings.map((f) => en(f)).join('\n')).toContain(
      "exp: the GPU resident becomes 2× faster than GPU Lab’s CPU code from about 2.1 k elements (somewhere between 2 k and 2.1 k, within the medians' uncertainty); at 1 M elements it is 90.9× the speed of GPU Lab’s CPU code.",
    );
    expect(a.findings.map((f) => en(f)).join('\n')).toMatch(/exp: the GPU with transfers never becomes 2× faster than GPU Lab’s CPU code at the sizes measured \(best/);
    // At 10⁶, measured: 0.01 + 0.1 ms resident, 0.05 + 10 ms with copies.
    expect(a.findings.map((f) => en(f)).join('\n')).toContain('exp: at 1 M elements keeping the data on the GPU is 91.4× faster than copying it there and back for each operation (110 µs resident against 10.05 ms with copies).');
    expect(a.summary).toMatchObject({ 'exp.gpu-resident.breakEvenAtMost': null, 'exp.gpu-transfers.breakEvenSize': null, 'exp.gpu-transfers.breakEvenAbove': 1e8 });
  });

  it('elementwise-breakeven stores a GPU already 2× faster at 100 elements as at most 100, not as 100', () => {
    const l = lab('elementwise-breakeven');
    const params = { ...defaults(l), ops: ['add'] };
    // CPU 10 µs + 1 ns per element; GPU resident 2 µs flat: 5× at 100 elements.
    const points = l.plan(params, WITH_GPU).map((p) => pointFromPlan(p, p.series === 'add-cpu' ? 0.01 + (p.x ?? 0) * 1e-6 : 0.002));
    const a = l.analyze(points, params, GPU);
    expect(a.summary['add.gpu-resident.breakEvenSize']).toBeNull();
    expect(a.summary['add.gpu-resident.breakEvenAtMost']).toBe(100);
    const f = a.findings.find((x) => x.id === 'add-gpu-resident-break-even');
    expect(en(f)).toContain('is already 2× faster than GPU Lab’s CPU code at the smallest size, 100 elements');
    expect(f && findingText(f, 'es')).toMatch(/^add: la GPU con datos residentes ya es 2× más rápida que la versión de GPU Lab en la CPU en el tamaño más pequeño, 100 elementos; con 1 M elementos, su velocidad es \d+× la de la versión de GPU Lab en la CPU\.$/);
    expect(f?.value).toBeNull();
  });

  describe('elementwise-breakeven names the caches only when they explain the CPU rate', () => {
    // The H200 run's CPU rates: add 184 GB/s at 10 M (3 arrays × 40 MB) and 76.5 GB/s at 100 M; exp 67.1 and 57.8.
    const cpuRates: Record<string, number> = { add: 184, exp: 67.1 };
    const largeRates: Record<string, number> = { add: 76.5, exp: 57.8 };
    function run(l3: number | null) {
      const l = lab('elementwise-breakeven');
      const params = { ...defaults(l), ops: ['add', 'exp'] };
      const points = l.plan(params, WITH_GPU).map((p) => {
        const op = p.series.split('-')[0] ?? '';
        const gbps = p.x === 1e7 ? (cpuRates[op] ?? 1) : (largeRates[op] ?? 1);
        return pointFromPlan(p, p.series.endsWith('-cpu') ? p.work.bytes / (gbps * 1e6) : 0.05);
      });
      const cpu = { ...CPU, details: { ...CPU.details, l3CacheBytes: l3 } };
      return l.analyze(points, params, GPU, cpu).findings;
    }

    it('claims a cache effect for a 2.4× drop whose faster arrays (114 MiB) fit in a 300 MiB L3', () => {
      const add = run(300 * 2 ** 20).find((f) => f.id === 'add-cpu-bandwidth');
      expect(en(add)).toBe(
        'add on the CPU streams 184 GB/s at 10 M elements (114 MiB of arrays) but 76.5 GB/s at 100 M (1.12 GiB), 2.41× slower: the smaller arrays fit in the 300 MiB last-level cache, the larger ones come from main memory.',
      );
      expect(add && findingText(add, 'es')).toBe(
        'add en la CPU mueve 184 GB/s con 10 M elementos (114 MiB de arrays), pero 76,5 GB/s con 100 M (1,12 GiB): 2,41× más lento. Los arrays más pequeños caben en la caché de último nivel, de 300 MiB; los más grandes llegan desde la memoria principal.',
      );
    });

    it('says nothing of a 1.16× drop (exp), which no cache explains', () => {
      expect(run(300 * 2 ** 20).find((f) => f.id === 'exp-cpu-bandwidth')).toBeUndefined();
    });

    it('gives only the numbers when the cache size is unknown, and rules the cache out when the arrays exceed it', () => {
      const unknown = run(null).find((f) => f.id === 'add-cpu-bandwidth');
      expect(en(unknown)).toMatch(/2\.41× slower\.$/);
      expect(en(unknown)).not.toMatch(/cache/);
      expect(en(run(32 * 2 ** 20).find((f) => f.id === 'add-cpu-bandwidth'))).toContain('both exceed the 32 MiB last-level cache, so the caches do not explain it');
    });
  });

  it('matmul reports the speedups of the seed notebook and the transfer share', () => {
    const l = lab('matmul');
    const ms: Record<string, number> = { 'cpu-blas': 580, 'gpu-transfers': 106.5, 'gpu-cublas': 50.4, 'gpu-tiled': 200, 'gpu-naive': 800 };
    const points = l.plan(defaults(l), WITH_GPU).map((p) => pointFromPlan(p, ms[p.series] ?? 1));
    const a = l.analyze(points, defaults(l), GPU);
    expect(a.summary['gpu-transfers.speedupVsCpu']).toBeCloseTo(580 / 106.5, 6);
    expect(a.summary.transferShare).toBeCloseTo((106.5 - 50.4) / 106.5, 6);
    const text = a.findings.map((f) => en(f)).join('\n');
    // 106.5 − 50.4 = 56.1 ms for 3 × 7000² × 4 B = 588 MB: 10.5 GB/s.
    expect(text).toContain('Transfers are 53 % of the end-to-end GPU time (106.5 ms with copies, 50.4 ms without): 56.1 ms to move A and B to the GPU and C back, 561 MiB at 10.48 GB/s from pageable host memory');
    const share = a.findings.find((f) => f.id === 'transfer-share');
    expect(share && findingText(share, 'es')).toBe(
      'Las transferencias son el 53 % del tiempo total en la GPU (106,5 ms con copias, 50,4 ms sin ellas): 56,1 ms para llevar A y B a la GPU y traer C de vuelta, 561 MiB a 10,48 GB/s desde memoria paginable de la CPU (mira el laboratorio de transferencias).',
    );
    // A share of a peak only against the point's own peak: the test GPU has no compute capability, so none.
    // The CPU named: GPU Lab's own BLAS, with the library the point says it ran on (here the synthetic one), the only
    // CPU series this run measured.
    expect(text).toContain('GPU cuBLAS resident: 50.4 ms, 11.5× the speed of GPU Lab’s CPU BLAS (synthetic) (13.61 TFLOP/s).');
    // With the copies, no rate at all: that time is mostly the bus's.
    expect(text).toContain('GPU cuBLAS with transfers: 106.5 ms, 5.45× the speed of GPU Lab’s CPU BLAS (synthetic) (copies and product in one time: no rate).');
    expect(text).not.toMatch(/the CPU's speed/);
    expect(text).toContain('The tiled kernel (200 ms) is 4.00× faster than the naive one (800 ms)');
    // cuBLAS at 50.4 ms against 200 ms: a real gain, credited to tuning on the same fp32 units, never to tensor cores.
    expect(text).toContain('cuBLAS is 3.97× faster than the tiled kernel (50.4 ms against 200 ms): register blocking');
    expect(text).not.toMatch(/tensor cores and|by tensor cores/);
  });

  it('matmul says plainly when cuBLAS barely beats the tiled kernel, as on the H200 (14.7 against 16 ms)', () => {
    const l = lab('matmul');
    const ms: Record<string, number> = { 'cpu-blas': 1080, 'gpu-transfers': 81.5, 'gpu-cublas': 14.7, 'gpu-tiled': 16, 'gpu-naive': 136 };
    const points = l.plan(defaults(l), WITH_GPU).map((p) => pointFromPlan(p, ms[p.series] ?? 1));
    const library = l.analyze(points, defaults(l), GPU).findings.find((f) => f.id === 'library');
    expect(en(library)).toContain('cuBLAS is only 1.09× faster than the tiled kernel (14.7 ms against 16 ms)');
    expect(en(library)).toContain('the same fp32 FMA units (fp32 GEMM uses no tensor cores');
    expect(library && findingText(library, 'es')).toMatch(/^cuBLAS es solo 1,09× más rápido que el kernel con teselas \(14,7 ms frente a 16 ms\): .* mismas unidades FMA de fp32 \(la GEMM en fp32 no usa tensor cores/);
  });

  it('matmul-breakeven interpolates the N where the GPU with transfers overtakes the CPU', () => {
    const l = lab('matmul-breakeven');
    // The course article's RTX 3080 figures: 0.08/0.42 ms at 100, 2.15/1.87 at 500.
    const cpu: Record<number, number> = { 100: 0.08, 500: 2.15, 1000: 12.34, 2000: 100, 5000: 1834 };
    const gpu: Record<number, number> = { 100: 0.42, 500: 1.87, 1000: 2.56, 2000: 10, 5000: 78.45 };
    const article = { ...defaults(l), sizes: [100, 500, 1000, 2000, 5000] };
    const points = l.plan(article, WITH_GPU).map((p) => pointFromPlan(p, (p.series === 'cpu' ? cpu : gpu)[p.x ?? 0] ?? 1));
    const a = l.analyze(points, article, GPU);
    const n = a.summary['gpu-transfers.breakEvenN'] ?? 0;
    expect(n).toBeGreaterThan(100);
    expect(n).toBeLessThan(500);
    expect(a.findings.map((f) => en(f)).join('\n')).toContain('The GPU with transfers overtakes GPU Lab’s CPU BLAS (synthetic) from about N = ');
    expect(a.summary['gpu-transfers.breakEvenNAtMost']).toBeNull();
    // No rate with the copies: that time is mostly the bus's.
    expect(en(a.findings.find((f) => f.id === 'gpu-transfers-range'))).toBe('GPU with transfers: 0.19× the speed of GPU Lab’s CPU BLAS (synthetic) at N = 100, 23.4× at N = 5,000.');
    // Resident, slower at 5000 (200 ms, 1.25 TFLOP/s) than at 2000 (2·2000³ in 10 ms = 1.6 TFLOP/s): the best names its
    // own N.
    const slowAtTop = l.plan(article, WITH_GPU).map((p) => pointFromPlan(p, p.series === 'cpu' ? (cpu[p.x ?? 0] ?? 1) : p.x === 5000 ? 200 : (gpu[p.x ?? 0] ?? 1)));
    expect(en(l.analyze(slowAtTop, article, GPU).findings.find((f) => f.id === 'gpu-resident-range'))).toContain('9.17× at N = 5,000; at best 1.6 TFLOP/s, at N = 2,000.');
  });

  it('matmul-breakeven stores a GPU faster at every N as a bound on the break-even', () => {
    // CPU at 10 GFLOP/s (0.2 ms at N = 100); GPU 10 µs + 50 TFLOP/s: ahead from the smallest N.
    const l = lab('matmul-breakeven');
    const points = l.plan(defaults(l), WITH_GPU).map((p) => pointFromPlan(p, p.series === 'cpu' ? (2 * (p.x ?? 0) ** 3) / 1e7 : 0.01 + (2 * (p.x ?? 0) ** 3) / 5e10));
    const a = l.analyze(points, defaults(l), GPU);
    expect(a.summary).toMatchObject({ 'gpu-resident.breakEvenN': null, 'gpu-resident.breakEvenNAtMost': 50, 'gpu-resident.breakEvenNAbove': null });
    expect(en(a.findings.find((f) => f.id === 'gpu-resident-break-even'))).toBe('The GPU resident is faster than GPU Lab’s CPU BLAS (synthetic) at every size measured, from N = 50.');
  });

  it('matmul-breakeven calls a GPU level with the CPU, not faster, where their samples overlap at the smallest N', () => {
    // At N = 50 the GPU's median is 0.5 % under the CPU's: 1.00× its speed, within the ±1 % spread of the samples.
    const l = lab('matmul-breakeven');
    const points = l.plan(defaults(l), WITH_GPU).map((p) => {
      const cpuMs = (2 * (p.x ?? 0) ** 3) / 1e7;
      return pointFromPlan(p, p.series === 'cpu' ? cpuMs : p.x === 50 ? cpuMs / 1.005 : cpuMs / 10);
    });
    const text = en(l.analyze(points, defaults(l), GPU).findings.find((f) => f.id === 'gpu-resident-break-even'));
    expect(text).toBe('The GPU resident is level with GPU Lab’s CPU BLAS (synthetic) at N = 50 (1.01× its speed, within the spread of the samples) and at least as fast at every larger size measured: the break-even is at or below the smallest size; add smaller sizes to find it.');
  });

  it('vector-function measures fusion and the copies', () => {
    const l = lab('vector-function');
    const ms: Record<string, number> = { 'cpu-single': 8.13, 'cpu-threads': 4.2, 'gpu-transfers': 20.7, 'gpu-unfused': 4.4, 'gpu-fused': 0.05 };
    const points = l.plan(defaults(l), WITH_GPU).map((p) => pointFromPlan(p, ms[p.series] ?? 1));
    const findings = l.analyze(points, defaults(l), GPU).findings;
    const text = findings.map((f) => en(f)).join('\n');
    expect(text).toContain('Fusing the three passes into one kernel is 88.0× faster (50 µs against 4.4 ms): three passes move 56 bytes per element, the fused kernel 24, 2.33× fewer');
    expect(text).toContain('With the copies, the GPU is slower than the threaded CPU (20.7 ms against 4.2 ms, 0.20× its speed)');
    // 5 M × 24 B = 120 MB (114 MiB) in 50 µs = 2.4 TB/s, half of the test GPU's 4.8 TB/s.
    expect(text).toContain('The fused kernel moves 114 MiB in 50 µs: 2.4 TB/s, 50 % of the GPU\'s theoretical memory bandwidth (4.8 TB/s)');
    // (20.7 − 0.05)/20.7 = 99.76 %: one decimal, so that nearly all does not print as all.
    expect(text).toContain('Copies are 99.8 % of the end-to-end GPU time (20.7 ms with copies, 50 µs resident): 114 MiB across the bus in 20.65 ms, 5.811 GB/s from pageable host memory.');
    const fusion = findings.find((f) => f.id === 'fusion');
    expect(fusion && findingText(fusion, 'es')).toBe(
      'Fusionar las tres pasadas en un solo kernel lo hace 88,0× más rápido (50 µs frente a 4,4 ms): las tres pasadas mueven 56 bytes por elemento y el kernel fusionado 24, 2,33× menos, porque el array intermedio nunca pasa por la memoria.',
    );
  });

  it('timing-pitfalls compares each wrong timing with the right one', () => {
    const l = lab('timing-pitfalls');
    const ms: Record<string, number> = { 'gpu-no-sync': 0.01, 'gpu-events': 4, 'gpu-cold': 300, 'gpu-warm': 4, 'cpu-cold': 200, 'cpu-warm': 70, 'cpu-one-thread': 140, 'cpu-all-threads': 70 };
    const points = l.plan(defaults(l), WITH_GPU).map((p) => pointFromPlan(p, ms[p.series] ?? 1));
    const text = l.analyze(points, defaults(l), GPU).findings.map((f) => en(f)).join('\n');
    expect(text).toContain('Without synchronising, the GEMM seems to take 10 µs; CUDA events show it takes 4 ms, 400× longer');
    expect(text).toContain('One CPU thread takes 140 ms, all threads 70 ms: 2.00× faster');
    expect(text).toContain('The cold first GPU call took 300 ms against 4 ms for a warmed one (warmed calls: 3.96 ms to 4.04 ms): 296 ms more, 75.0×. Timed without a warm-up, that cost lands in the figure. This run does not measure what the cost is made of');
  });

  it.each([
    // The H200 run: 497 µs cold against 370 µs warmed (±1 %): real, but small, and what it is made of not measured.
    [0.497, /The cold first GPU call took 497 µs against 370 µs .*: 127 µs more, 1.34×, a small one-time cost\. This run does not measure what the cost is made of/],
    // Above every warmed sample (373.7 µs): not within their spread, however close to the median.
    [0.39, /The cold first GPU call took 390 µs against 370 µs .*: 20 µs more, 1.05×, a small one-time cost/],
    [0.372, /On the GPU, the cold first call \(372 µs\) lies within the spread of the warmed calls \(366\.3 µs to 373\.7 µs, median 370 µs\): no one-time cost stands out/],
    // Below every warmed sample: faster, not "within".
    [0.36, /On the GPU, the cold first call \(360 µs\) was faster than every warmed call/],
  ])('timing-pitfalls words a %s ms cold GPU call by what it holds', (coldMs, expected) => {
    const l = lab('timing-pitfalls');
    const points = l.plan(defaults(l), WITH_GPU).map((p) => pointFromPlan(p, p.series === 'gpu-cold' ? coldMs : p.series === 'gpu-warm' ? 0.37 : 1));
    const cold = l.analyze(points, defaults(l), GPU).findings.find((f) => f.id === 'gpu-cold');
    expect(en(cold)).toMatch(expected);
    expect(en(cold)).not.toMatch(/library loading|handle creation/);
    // In Spanish the same verdict: a small one-time cost, or within the spread of the warmed calls.
    const es = expected.source.includes('small one-time cost')
      ? /^La primera llamada en frío en la GPU tardó \d+ µs, .*, un pequeño coste inicial\. Esta ejecución no mide/
      : expected.source.includes('faster than every')
        ? /^En la GPU, la primera llamada en frío \(360 µs\) fue más rápida que todas las llamadas en caliente/
        : /^En la GPU, la primera llamada en frío \(3\d\d µs\) queda dentro de la dispersión de las llamadas en caliente/;
    expect(cold && findingText(cold, 'es')).toMatch(es);
  });

  it('transfer does not say copies under the smallest it measured need anything: half the peak there is "already"', () => {
    const l = lab('transfer');
    const params = { ...defaults(l), minBytes: 2 ** 30, maxBytes: 2 ** 34 };
    const points = l.plan(params, WITH_GPU).map((p) => pointFromPlan(p, 0.01 + (p.x ?? 0) / (25 * 1e6)));
    const peak = l.analyze(points, params, GPU).findings.find((f) => f.id === 'h2d-pinned-sync-peak');
    expect(en(peak)).toMatch(/^host→device, pinned, sync: up to 25 GB\/s \(at 16 GiB\); already half of that at the smallest copy measured, 1 GiB\.$/);
    expect(findingText(peak as Finding, 'es')).toMatch(/ya llega a la mitad con la copia más pequeña medida, de 1 GiB/);
  });

  it('transfer finds the peak, the half-peak size and pinned over pageable', () => {
    const l = lab('transfer');
    // Latency 10 µs plus bytes at 25 GB/s (pinned) or 12.5 GB/s (pageable); d2d 2000 GB/s.
    const points = l.plan(defaults(l), WITH_GPU).map((p) => {
      const bytes = p.x ?? 0;
      const rate = p.series === 'd2d' ? 2000 : p.series.includes('pinned') ? 25 : 12.5;
      return pointFromPlan(p, 0.01 + bytes / (rate * 1e6));
    });
    const a = l.analyze(points, defaults(l), GPU);
    expect(a.summary['h2d.pinnedOverPageable']).toBeCloseTo(2, 1);
    const text = a.findings.map((f) => en(f)).join('\n');
    // 1 KiB: 10 µs + 1024 B at 25 GB/s (41 ns): the arithmetic behind "latency" is in the sentence.
    expect(text).toContain('host→device, pinned, sync: up to 24.99 GB/s (at 1 GiB); half of that needs copies of 256 KiB or more; 1 KiB takes 10.04 µs, where its bytes at 24.99 GB/s would take 41 ns: the rest is latency.');
    // Device→device rates count each byte read and written.
    expect(text).toContain('device→device (read + write): up to 3.927 TB/s (at 1 GiB)');
    expect(text).toContain('pinned memory reaches 2.00× the bandwidth of pageable memory');
    // The same 1 GiB copied once each way: 10 µs + 1 GiB at 2000 GB/s against 10 µs + 1 GiB at 25 GB/s. Not the d2d
    // series' read + write rate (3.93 TB/s) over the bus's one-way rate.
    const bus = a.findings.find((f) => f.id === 'bus-vs-memory');
    expect(en(bus)).toContain('Copying 1 GiB inside the GPU takes 546.9 µs; bringing the same bytes across the bus (host→device, pinned, sync) takes 42.96 ms, 78.6× longer (1.963 TB/s against 24.99 GB/s, each counting the bytes once)');
    // In Spanish, the series named as the Spanish legend names it.
    expect(bus && findingText(bus, 'es')).toMatch(/^Copiar 1 GiB dentro de la GPU tarda 546,9 µs; traer esos mismos bytes por el bus \(CPU→GPU, fijada, síncrona\) tarda 42,96 ms, 78,6× más \(1,963 TB\/s frente a 24,99 GB\/s/);
    const latency = a.findings.find((f) => f.id === 'h2d-pinned-sync-peak');
    expect(latency && findingText(latency, 'es')).toBe(
      'CPU→GPU, fijada, síncrona: hasta 24,99 GB/s (con copias de 1 GiB); para llegar a la mitad hacen falta copias de 256 KiB o más; copiar 1 KiB tarda 10,04 µs, cuando a 24,99 GB/s sus bytes tardarían 41 ns: el resto es latencia.',
    );
    expect(a.summary['d2d.timeRatioToBus']).toBeCloseTo((0.01 + 2 ** 30 / 25e6) / (0.01 + 2 ** 30 / 2e9), 6);
  });

  it('transfer calls a copy latency only when its bytes are a small part of its time', () => {
    const l = lab('transfer');
    const params = { ...defaults(l), minBytes: 2 ** 26, directions: ['h2d'] };
    // 64 MiB: 10 µs + 2.68 ms of bytes at 25 GB/s. Nearly all bandwidth, no "latency" to speak of.
    const points = l.plan(params, WITH_GPU).map((p) => pointFromPlan(p, 0.01 + (p.x ?? 0) / ((p.series.includes('pinned') ? 25 : 12.5) * 1e6)));
    const text = l.analyze(points, params, GPU).findings.map((f) => en(f)).join('\n');
    expect(text).toContain('host→device, pinned, sync: up to 24.99 GB/s (at 1 GiB); already half of that at the smallest copy measured, 64 MiB.');
    expect(text).not.toContain('latency');
  });

  it('dtypes reports footprints and the speed of each type against fp32', () => {
    const l = lab('dtypes');
    // int8 at 0.5 ms: 2·4096³ operations in 0.5 ms = 275 TOP/s, in the same T unit as the other types.
    const ms: Record<string, number> = { 'cpu-fp64': 2000, 'cpu-fp32': 1000, 'gpu-fp64': 20, 'gpu-fp32': 10, 'gpu-tf32': 2, 'gpu-fp16': 1, 'gpu-bf16': 1, 'gpu-int8': 0.5 };
    const points = l.plan(defaults(l), WITH_GPU).map((p) => pointFromPlan(p, ms[p.key] ?? 1));
    const a = l.analyze(points, defaults(l), GPU);
    expect(a.summary['fp16.footprintBytes']).toBe(4096 * 4096 * 2);
    const text = a.findings.map((f) => en(f)).join('\n');
    expect(text).toContain('One 4096×4096 matrix takes 128 MiB in fp64, 64 MiB in fp32');
    expect(text).toContain('GPU fp16: 137.4 TFLOP/s, 10.0× fp32\'s speed');
    expect(text).toContain('GPU int8: 274.9 TOP/s, 20.0× fp32\'s speed');
    expect(text).toContain('On the CPU, fp32 GEMM runs 2.00× as fast as fp64');
    // The test GPU has no compute capability, so the peak table knows none of its peaks: no share is said.
    expect(text).toContain('GPU fp32: 13.74 TFLOP/s, relative error');
    expect(text).not.toContain(' can do');
    expect(text).not.toContain('fp64 tensor cores');
  });

  it('dtypes reads each GPU type against the peak its point carries, from the peak table: fp64 on an H100 against its fp64 tensor cores', () => {
    const l = lab('dtypes');
    const h100 = (JSON.parse(readFileSync(join(import.meta.dirname, '../../fixtures/devices-h100.json'), 'utf8')) as { devices: DeviceSummary[] }).devices.find((d) => d.kind === 'cuda') as DeviceSummary;
    const ctx = { ...WITH_GPU, gpu: h100 };
    // 2·4096³ = 137.4 GFLOP: fp32 in 3 ms (45.8 TFLOP/s), fp64 in 2.5 ms (55.0 TFLOP/s), fp16 in 0.25 ms (550 TFLOP/s).
    const ms: Record<string, number> = { 'gpu-fp32': 3, 'gpu-fp64': 2.5, 'gpu-fp16': 0.25 };
    const points = l.plan(defaults(l), ctx).map((p) => pointFromPlan(p, ms[p.key] ?? 1));
    const text = l.analyze(points, defaults(l), h100).findings.map((f) => en(f)).join('\n');
    const gpu = (key: string): PointResult => points.find((p) => p.key === key) as PointResult;
    expect(gpu('gpu-fp32').peak?.name).toBe('fp32');
    expect(gpu('gpu-fp64').peak?.name).toBe('fp64-tensor');
    expect(gpu('gpu-fp16').peak?.name).toBe('fp16-tensor');
    for (const key of ['gpu-fp32', 'gpu-fp64', 'gpu-fp16']) {
      const p = gpu(key);
      const share = shareOfPeak(p) ?? Number.NaN;
      // The share the sentence gives is the point's rate over the point's peak, below 100 % on this card.
      expect(share).toBeLessThan(1);
      expect(text).toContain(`${formatPercent(share, 'en')} of the ${formatRate(p.peak?.value ?? 0, p.peak?.unit ?? 'GFLOP/s', 'en')}`);
    }
    expect(text).toMatch(/GPU fp64: [\d.]+ TFLOP\/s \(\d+ % of the [\d.]+ TFLOP\/s NVIDIA’s datasheet gives its tensor cores at this type\)/);
  });

  it('dtypes explains an fp64 GEMM faster than the fp64 units, as on an H200, and an exact int8 result', () => {
    const l = lab('dtypes');
    // fp64 at 2 ms: 68.7 TFLOP/s, above the test GPU's 30 TFLOP/s of fp64 units.
    const ms: Record<string, number> = { 'gpu-fp64': 2, 'gpu-fp32': 2.5 };
    const points = l.plan(defaults(l), WITH_GPU).map((p) => {
      const point = pointFromPlan(p, ms[p.key] ?? 1);
      return p.key === 'gpu-int8' && point.verification ? { ...point, verification: { ...point.verification, relativeError: 0 } } : point;
    });
    const findings = l.analyze(points, defaults(l), GPU).findings;
    const text = findings.map((f) => en(f)).join('\n');
    expect(text).toContain('GPU fp64: 68.72 TFLOP/s, 1.25× fp32\'s speed, relative error 1.0e-7 against float64. It is faster than the 30 TFLOP/s the fp64 units can do: cuBLAS runs fp64 GEMM on the fp64 tensor cores');
    expect(text).toContain('relative error 0 (exact) against float64');
    // The error's digits written the Spanish way: a decimal comma in scientific notation too.
    const es = findings.map((f) => findingText(f, 'es')).join('\n');
    expect(es).toContain('GPU en fp64: 68,72 TFLOP/s, 1,25× la velocidad de fp32; error relativo frente a float64: 1,0e-7. Supera los 30 TFLOP/s que pueden dar las unidades fp64');
    expect(es).toContain('GPU en int8: 137,4 TOP/s, 2,50× la velocidad de fp32; error relativo frente a float64: 0 (exacto).');
    expect(es).toContain('GEMM en fp32 en la CPU: error relativo 1,0e-7 frente a float64 (tolerancia 1,0e-5).');
  });
});
