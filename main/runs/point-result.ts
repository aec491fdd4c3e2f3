// A planned point and what the compute host answered, turned into the point of a run record: statistics of the
// samples that count on its clock (statistics.ts timedStatistics, as the engine's sampling judged them), rates from
// the median, and the rule that a result which failed verification has no time.
import type { ErrorPayload } from '../common/errors.ts';
import type { MeasurementResult } from '../common/measurement.ts';
import { msg } from '../common/pure/message.ts';
import type { PointResult } from '../common/run-record.ts';
import type { PlannedPoint } from '../labs/lab.ts';
import { timedStatistics } from '../common/pure/statistics.ts';

function base(planned: PlannedPoint): Omit<PointResult, 'status' | 'reason' | 'error'> {
  const m = planned.measurement;
  return {
    key: planned.key,
    series: planned.series,
    label: planned.label,
    name: planned.name,
    x: planned.x,
    device: planned.device,
    work: planned.work,
    implementation: null,
    threads: null,
    warmup: m && 'warmup' in m ? (m.cold ? 0 : m.warmup) : 0,
    repeats: m?.repeats ?? 0,
    clock: planned.clock,
    hostMs: [],
    deviceMs: null,
    stats: null,
    gflops: null,
    gbps: null,
    verification: null,
    telemetry: null,
    peak: planned.peak ?? null,
  };
}

export function waivedPoint(planned: PlannedPoint): PointResult {
  return { ...base(planned), status: 'waived', reason: planned.waived, ...(planned.waivedWhy ? { why: planned.waivedWhy } : {}), error: null };
}

// A point the run never reached: it was cancelled, or it failed (the host died, a timeout) before this point.
export function cancelledPoint(planned: PlannedPoint, runError: ErrorPayload | null = null): PointResult {
  const reason = runError ? `the run failed before this point: ${runError.code}` : 'the run was cancelled before this point';
  const why = runError ? msg('reasons.failedBefore', { code: runError.code }) : msg('reasons.cancelled');
  return { ...base(planned), status: 'cancelled', reason, why, error: null };
}

export function failedPoint(planned: PlannedPoint, error: ErrorPayload): PointResult {
  return { ...base(planned), status: 'failed', reason: error.message, error };
}

export function measuredPoint(planned: PlannedPoint, r: MeasurementResult): PointResult {
  const point: PointResult = {
    ...base(planned),
    status: 'ok',
    reason: null,
    error: null,
    implementation: r.implementation,
    threads: r.threads,
    executionsPerSample: r.executionsPerSample,
    verification: r.verification,
    telemetry: r.telemetry,
    // The samples taken, not the plan's repeats: the engine decided how many (host/sampling.ts).
    ...(r.sampling ? { repeats: r.sampling.samples, sampling: r.sampling } : {}),
    ...(r.clockResolution ? { clockResolution: r.clockResolution } : {}),
    ...(r.memory ? { memory: r.memory } : {}),
  };
  const v = r.verification;
  if (v && !v.passed) {
    const err = v.relativeError === null ? 'not a finite number' : v.relativeError.toExponential(2);
    const message = `The result is wrong: relative error ${err} against a float64 reference, tolerance ${v.tolerance.toExponential(1)}`;
    // Never shown as a time: the samples of a wrong result are dropped with it.
    return { ...point, status: 'failed', reason: message, error: { code: 'VERIFICATION_FAILED', message, details: { relativeError: v.relativeError } } };
  }
  const stats = timedStatistics(r);
  // GFLOP/s = FLOPs / (ms · 10⁶); GB/s = bytes / (ms · 10⁶); none where the time is not the work's alone (copies with
  // the kernels, a clock stopped at the launch).
  const perMs = stats.median > 0 && !planned.unrated ? 1 / (stats.median * 1e6) : 0;
  return {
    ...point,
    clock: r.clock,
    hostMs: r.hostMs,
    deviceMs: r.deviceMs,
    stats,
    gflops: planned.work.flops > 0 && perMs > 0 ? planned.work.flops * perMs : null,
    gbps: planned.work.bytes > 0 && perMs > 0 ? planned.work.bytes * perMs : null,
  };
}
