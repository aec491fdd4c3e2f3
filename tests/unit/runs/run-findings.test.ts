// The findings every run gets, whatever its lab: in English word for word as runs have always recorded them (the
// count decides "point was" or "points were"), and in Spanish from the same message, the record's own words (a
// waived point's reason, a point's label, an error) quoted as they are.
import { describe, expect, it } from 'vitest';

import type { PointResult } from '../../../main/common/run-record.ts';
import { validateParams } from '../../../main/common/params.ts';
import { findLab } from '../../../main/labs/index.ts';
import type { PlannedPoint } from '../../../main/labs/lab.ts';
import { findingText } from '../../../main/labs/lab-text.ts';
import { failedPoint, measuredPoint, waivedPoint } from '../../../main/runs/point-result.ts';
import { withCurrentFindings } from '../../../main/runs/current-findings.ts';
import { runFindings } from '../../../main/runs/run-findings.ts';
import { fixture } from '../reports/pdf-tools.ts';
import { CPU_ONLY, WITH_GPU, pointFromPlan } from '../labs/synthetic.ts';

function planned(context: typeof WITH_GPU | typeof CPU_ONLY): PlannedPoint[] {
  const lab = findLab('timing-pitfalls');
  if (!lab) throw new Error('timing-pitfalls');
  return lab.plan(validateParams('timing-pitfalls', lab.descriptor.parameters, {}), context);
}

// Samples from 1 to 3 ms: the middle half spans 1 ms around a 2 ms median, far over 10 % of it.
function noisyPoint(p: PlannedPoint): PointResult {
  return measuredPoint(p, { clock: 'host', hostMs: [1, 1.5, 2, 2, 2.5, 3], deviceMs: null, executionsPerSample: 1, implementation: 'synthetic', threads: 2, verification: null, telemetry: null });
}

function wrongPoint(p: PlannedPoint): PointResult {
  const verification = { method: 'full' as const, checked: 1, total: 1, relativeError: 0.5, tolerance: 1e-5, passed: false, mismatches: [] };
  return measuredPoint(p, { clock: 'host', hostMs: [1, 1, 1], deviceMs: null, executionsPerSample: 1, implementation: 'synthetic', threads: 2, verification, telemetry: null });
}

function read(points: PointResult[], id: string): { en: string; es: string } {
  const f = runFindings(points).find((x) => x.id === id);
  if (!f) throw new Error(`no finding ${id}`);
  return { en: findingText(f, 'en'), es: findingText(f, 'es') };
}

describe('run findings', () => {
  it('counts the waived points of each reason, one and many, in both languages', () => {
    const points = planned(CPU_ONLY).map((p) => (p.waived === null ? pointFromPlan(p, 1) : waivedPoint(p)));
    expect(read(points, 'waived-0')).toEqual({
      en: '4 points were WAIVED: built without CUDA: nvcc was not found.',
      es: '4 puntos se OMITIERON: GPU Lab se compiló sin CUDA: nvcc was not found.',
    });
    const one = points.filter((p) => p.status !== 'waived' || p.series === 'gpu-cold');
    expect(read(one, 'waived-0')).toEqual({ en: '1 point was WAIVED: built without CUDA: nvcc was not found.', es: '1 punto se OMITIÓ: GPU Lab se compiló sin CUDA: nvcc was not found.' });
    const noReason = one.map((p) => (p.status === 'waived' ? { ...p, reason: null, why: undefined } : p));
    expect(read(noReason, 'waived-0')).toEqual({ en: '1 point was WAIVED: no reason given.', es: '1 punto se OMITIÓ: no consta el motivo.' });
  });

  it('names the points that failed verification and the first point that failed to measure', () => {
    const plan = planned(WITH_GPU);
    const [first, second, third] = plan;
    if (!first || !second || !third) throw new Error('timing-pitfalls plans fewer than 3 points');
    const points = [wrongPoint(first), wrongPoint(second), failedPoint(third, { code: 'CUDA_ERROR', message: 'an illegal memory access was encountered' }), ...plan.slice(3).map((p) => pointFromPlan(p, 1))];
    expect(read(points, 'verification-failed')).toEqual({
      en: '2 results failed verification against the float64 reference and are shown as failed, not as times: GPU, first call (cold); CPU, first call (cold).',
      es: '2 resultados no superaron la verificación frente a la referencia en float64 y se muestran como fallidos, no como tiempos: GPU, primera llamada (en frío); CPU, primera llamada (en frío).',
    });
    expect(read(points, 'points-failed')).toEqual({
      en: '1 point failed to measure (first: GPU, clock stopped at launch, CUDA_ERROR).',
      es: '1 punto no se pudo medir (el primero: GPU, reloj parado al lanzar, CUDA_ERROR).',
    });
    expect(read([wrongPoint(first)], 'verification-failed').es).toMatch(/^1 resultado no superó la verificación .* y se muestra como fallido, no como un tiempo: GPU, primera llamada \(en frío\)\.$/);
  });

  it('calls noisy points noisy with their worst spread, the percent written per language', () => {
    const plan = planned(WITH_GPU);
    const points = plan.map((p, i) => (i === 0 ? noisyPoint(p) : pointFromPlan(p, 1)));
    const { en, es } = read(points, 'noisy');
    // Six samples: the median's 95 % interval is [1, 3], ±50 % of the median (2).
    expect(en).toBe(
      '1 point is noisy (its median is uncertain by more than ±5 %; worst: GPU, first call (cold), ±50 %): rerun it before trusting it.',
    );
    expect(es).toMatch(/^1 punto es ruidoso \(la incertidumbre de su mediana supera el ±5 %; el peor: GPU, primera llamada \(en frío\), ±50 %\): .*antes de fiarte de él\.$/);
    const many = read(plan.map((p, i) => (i < 3 ? noisyPoint(p) : pointFromPlan(p, 1))), 'noisy');
    expect(many.en).toMatch(/^3 points are noisy .*rerun them before trusting them\.$/);
    expect(many.es).toMatch(/^3 puntos son ruidosos .*antes de fiarte de ellos\.$/);
  });
});

describe('what slowed down while points were measured', () => {
  const plan = planned(WITH_GPU);
  const telemetry = (from: number, to: number) => ({
    start: { smClockMHz: from, memoryClockMHz: 2619, temperatureC: 40, powerW: 100, throttleReasons: [] },
    end: { smClockMHz: to, memoryClockMHz: 2619, temperatureC: 60, powerW: 600, throttleReasons: [] },
  });
  const sampling = { samples: 6, targetFraction: 0.02, budgetSeconds: 1, stop: 'converged' as const };

  it('says how many points the GPU clock fell 5 % or more across, naming the one that fell most; not a smaller fall, and not a rise', () => {
    const points = plan.map((p, i) => ({ ...pointFromPlan(p, 1), telemetry: i === 0 ? telemetry(1980, 1755) : i === 1 ? telemetry(1980, 1890) : i === 2 ? telemetry(1410, 1980) : telemetry(1980, 1950) }));
    const { en, es } = read(points, 'gpu-clock-dropped');
    // 1980 → 1755 is 11 % lower, 1980 → 1890 is 4.5 % (under 5 %), 1410 → 1980 a ramp up from idle, 1980 → 1950 1.5 %.
    expect(en).toBe("The GPU's SM clock was 5 % or more lower after 1 point than before it (from 1,980 to 1,755 MHz at GPU, first call (cold)): the card slowed down (heat or power) while it was measured.");
    expect(es).toContain('de 1980 a 1755 MHz en GPU, primera llamada (en frío)');
    expect(runFindings(plan.map((p) => ({ ...pointFromPlan(p, 1), telemetry: telemetry(1980, 1900) }))).some((f) => f.id === 'gpu-clock-dropped')).toBe(false);
    // A clock that rose from idle for the work is not a clock that changed the samples: no finding.
    expect(runFindings(plan.map((p) => ({ ...pointFromPlan(p, 1), telemetry: telemetry(345, 1980) }))).some((f) => f.id === 'gpu-clock-dropped')).toBe(false);
  });

  it('says the same of the CPU clock where it was read, and of the CPU time stolen during points', () => {
    const points = plan.map((p, i) => ({
      ...pointFromPlan(p, 1),
      sampling: { ...sampling, cpuClockMHz: i < 2 ? { start: 3000, end: 2100 + i * 300 } : i === 2 ? { start: 1200, end: 3000 } : { start: 3000, end: 2990 }, cpuSteal: i === 2 ? 0.12 : i === 3 ? 0.06 : 0.01 },
    }));
    const clock = read(points, 'cpu-clock-dropped');
    expect(clock.en).toMatch(/^The CPU's clock was 5 % or more lower after 2 points than before them \(the most from 3,000 to 2,100 MHz, at GPU, first call \(cold\)\)/);
    const steal = read(points, 'points-steal');
    expect(steal.en).toMatch(/^2 points were measured while the hypervisor gave at least 5 % of the CPU time to other guests \(up to 12 %, at /);
    expect(steal.es).toMatch(/^2 puntos se midieron mientras el hipervisor cedía al menos el 5 % .*\(hasta el 12 %, en /);
    const quiet = plan.map((p) => ({ ...pointFromPlan(p, 1), sampling: { ...sampling, cpuClockMHz: null, cpuSteal: 0.049 } }));
    expect(runFindings(quiet).map((f) => f.id)).not.toContain('points-steal');
    expect(runFindings(quiet).map((f) => f.id)).not.toContain('cpu-clock-dropped');
  });
});

describe('the points a run-wide finding names', () => {
  it('read in the reader’s language where the lab sweeps a size: the noisiest point of the H100 break-even run in Spanish', () => {
    const record = withCurrentFindings(fixture('h100-matmul-breakeven'));
    const noisy = record.findings.find((f) => f.id === 'noisy');
    if (!noisy) throw new Error('the H100 matmul-breakeven run has noisy points');
    // 62.31 µs, 8.7 % above its interval's low end and 3.7 % below its high end: lopsided, so its two ends.
    expect(findingText(noisy, 'en')).toContain('worst: GPU with transfers, N = 100, [56.86 µs, 64.61 µs]');
    expect(findingText(noisy, 'es')).toContain('el peor: GPU con transferencias, N = 100, [56,86 µs; 64,61 µs]');
    expect(findingText(noisy, 'es')).not.toMatch(/with transfers/);
  });
});
