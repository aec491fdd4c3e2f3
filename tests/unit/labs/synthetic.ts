// Points as the runner would record them, built from chosen median times, for testing analyses without measuring.
import { msg } from '../../../main/common/pure/message.ts';
import type { PointResult } from '../../../main/common/run-record.ts';
import type { Lab, PlanContext, PlannedPoint } from '../../../main/labs/lab.ts';
import type { PeerLibrary, PeersReport } from '../../../main/common/peer-protocol.ts';
import type { DeviceSummary } from '../../../main/common/devices.ts';
import { summarize } from '../../../main/common/pure/statistics.ts';
import { measuredPoint, waivedPoint } from '../../../main/runs/point-result.ts';

// Five samples spread ±1 % around `medianMs`, verified.
export function pointFromPlan(planned: PlannedPoint, medianMs: number): PointResult {
  const hostMs = [0.99, 0.995, 1, 1.005, 1.01].map((f) => f * medianMs);
  return measuredPoint(planned, {
    clock: planned.clock,
    hostMs,
    deviceMs: hostMs,
    executionsPerSample: 1,
    implementation: 'synthetic',
    threads: 2,
    verification: { method: 'full', checked: 1, total: 1, relativeError: 1e-7, tolerance: 1e-5, passed: true, mismatches: [] },
    telemetry: null,
  });
}

// A planned point measured with exactly these samples on the host's clock, unverified, on `threads` threads: for
// generated runs whose medians and spreads a property test chooses.
export function sampledPoint(p: PlannedPoint, samples: number[], threads = 2): PointResult {
  const stats = summarize(samples);
  const perMs = 1 / (stats.median * 1e6);
  return {
    ...waivedPoint(p),
    status: 'ok',
    reason: null,
    clock: 'host',
    hostMs: samples,
    deviceMs: null,
    stats,
    gflops: p.work.flops > 0 ? p.work.flops * perMs : null,
    gbps: p.work.bytes > 0 ? p.work.bytes * perMs : null,
    threads,
  };
}

export const CPU = {
  id: 'cpu', kind: 'cpu' as const, name: 'Test CPU', peakGflopsFp32: null, peakGflopsFp64: null, peakMemoryGBps: null, memoryBytes: 8e9,
  details: { logicalCores: 2 },
};

export const GPU = {
  id: 'cuda:0', kind: 'cuda' as const, name: 'Test GPU', peakGflopsFp32: 60_000, peakGflopsFp64: 30_000, peakMemoryGBps: 4800, memoryBytes: 80e9,
  details: {},
};

// Mesa's lavapipe as the compute host lists it (host/webgpu/listing.ts): a software adapter with f16 and timestamps.
export const LAVAPIPE: DeviceSummary = {
  id: 'webgpu:0',
  kind: 'webgpu',
  name: 'llvmpipe llvm 15 0 6 256 bits',
  peakGflopsFp32: null,
  peakGflopsFp64: null,
  peakMemoryGBps: null,
  memoryBytes: null,
  details: {
    vendor: 'mesa',
    architecture: 'software',
    device: 'llvmpipe-llvm-15-0-6-256-bits-',
    description: 'llvmpipe: Mesa 25.0.7',
    backend: 'Vulkan',
    featureLevel: 'core',
    fallbackAdapter: true,
    software: true,
    nvidia: false,
    lockKey: 'webgpu:llvmpipe-llvm-15-0-6-256-bits',
    features: 'shader-f16, timestamp-query',
    timestampQuery: true,
    peakPart: null,
    peakFp32Formula: 'no peak known: a software adapter runs on the CPU',
    peakMemoryFormula: 'no peak known: a software adapter runs on the CPU',
    'limit.maxBufferSize': 4294967296,
    'limit.maxStorageBufferBindingSize': 134217728,
    'limit.maxComputeInvocationsPerWorkgroup': 1024,
    'limit.maxComputeWorkgroupsPerDimension': 65535,
  },
};

export const WITH_GPU = { cpu: CPU, cpuThreads: 2, gpu: GPU, gpuWaivedReason: '', gpuWaivedWhy: null };
// As planContext (runs/lab-runner.ts) words a machine whose addon was built without CUDA.
export const CPU_ONLY = {
  cpu: CPU,
  cpuThreads: 2,
  gpu: null,
  gpuWaivedReason: 'built without CUDA: nvcc was not found',
  gpuWaivedWhy: msg('reasons.builtWithoutCuda', { detail: 'nvcc was not found' }),
};

// What an interpreter with every library offers, CUDA working where there is a GPU.
export function peersFound(asked: readonly PeerLibrary[], gpu: boolean): PeersReport {
  const libraries = Object.fromEntries(asked.map((l) => [l, { found: true as const, version: '1.0', cudaAvailable: gpu }]));
  return { interpreter: 'python3', available: true, probe: { python: '3.12.3', executable: '/usr/bin/python3', libraries } };
}

// A lab as the runner plans it by default: a lab whose every series is Python's (text-to-image) with its libraries asked
// and found; the others without their peers, as most tests take them.
export function asRunnerPlans(lab: Lab, ctx: PlanContext): PlanContext {
  if (!lab.descriptor.series.every((s) => s.peer)) return ctx;
  const asked = [...new Set(lab.descriptor.series.flatMap((s) => (s.peer ? [s.peer] : [])))];
  return { ...ctx, peers: { asked, report: peersFound(asked, ctx.gpu !== null) } };
}
