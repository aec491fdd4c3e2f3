// One row of `gpu-lab bench`: a workload measured on one device, with its statistics, its rate and whether its
// result matched the reference.
import type { Verification } from '../common/measurement.ts';
import type { BenchmarkResult } from '../../native/index.ts';
import { summarize } from '../runner/statistics.ts';

export interface BenchRecord {
  id: string;
  device: string;
  variant: string;
  // Elements for elementwise work, N for an N×N GEMM, bytes for copies.
  size: number;
  // Null when the result failed verification: a wrong result has no time.
  medianMs: number | null;
  minMs: number | null;
  maxMs: number | null;
  samples: number;
  // Which clock the figures come from: "host" (monotonic, after synchronising) or "device" (CUDA events).
  timer: 'host' | 'device';
  gflops?: number;
  tflops?: number;
  gbps?: number;
  implementation: string;
  threads: number;
  verified: boolean;
  relError: number | null;
  noisy: boolean;
}

export interface Workload {
  id: string;
  variant: string;
  size: number;
  // Counted work: floating-point operations and the fewest bytes that must move.
  flops?: number;
  bytes?: number;
}

// `verification` null: nothing to check (the empty operation).
export function toRecord(
  w: Workload,
  device: string,
  result: BenchmarkResult,
  verification: Verification | null,
  timer: 'host' | 'device' = 'host',
): BenchRecord {
  const samples = timer === 'device' && result.deviceMs ? result.deviceMs : result.hostMs;
  const s = summarize(samples);
  const verified = verification?.passed ?? true;
  const record: BenchRecord = {
    id: w.id,
    device,
    variant: w.variant,
    size: w.size,
    medianMs: verified ? s.median : null,
    minMs: verified ? s.min : null,
    maxMs: verified ? s.max : null,
    samples: s.count,
    timer,
    implementation: result.implementation,
    threads: result.threads,
    verified,
    relError: verification?.relativeError ?? null,
    noisy: s.noisy,
  };
  if (!verified) return record;
  // GFLOP/s = flops / (ms · 10⁶); GB/s = bytes / (ms · 10⁶).
  if (w.flops !== undefined) {
    const gflops = w.flops / (s.median * 1e6);
    if (gflops >= 1000) record.tflops = gflops / 1000;
    else record.gflops = gflops;
  }
  if (w.bytes !== undefined) record.gbps = w.bytes / (s.median * 1e6);
  return record;
}
