// A run too big for the machine is refused before it starts, naming the point and the memory it needs; the figure
// is what the ops really allocate (counted here by watching every host buffer the CPU ops make).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it, vi } from 'vitest';

import type * as NativeIndex from '../../../native/index.ts';
import { measurementFootprint } from '../../../main/common/footprint.ts';
import type { GpuLabError } from '../../../main/common/errors.ts';
import type { RunRecord } from '../../../main/common/run-record.ts';
import type { HostEnvironment } from '../../../main/engine/supervisor.ts';
import { findLab, LABS } from '../../../main/labs/index.ts';
import { validateParams } from '../../../main/common/params.ts';
import { planContext } from '../../../main/runs/lab-runner.ts';
import { availableHostBytes, checkPlanFits } from '../../../main/runs/memory-check.ts';
import { releaseInputs } from '../../../main/host/kept-inputs.ts';
import h100 from '../../fixtures/runs/h100-transfer.json' with { type: 'json' };

// Every host buffer the ops make, by size, while the spy is on.
const made: number[] = [];
vi.mock('../../../native/index.ts', async (original) => {
  const real = await original<typeof NativeIndex>();
  return {
    ...real,
    createHostBuffer: (dtype: NativeIndex.DType, length: number) => {
      const b = real.createHostBuffer(dtype, length);
      made.push(b.byteLength);
      return b;
    },
  };
});

const GiB = 2 ** 30;
const env = { devices: (h100 as unknown as RunRecord).environment.devices, versions: {}, pid: 1 } as HostEnvironment;

function plan(labId: string, params: Record<string, unknown>, device: string, e: HostEnvironment = env) {
  const lab = findLab(labId);
  if (!lab) throw new Error(labId);
  return lab.plan(validateParams(labId, lab.descriptor.parameters, params), planContext(e, device));
}

function refusal(fn: () => void): GpuLabError {
  try {
    fn();
  } catch (err) {
    return err as GpuLabError;
  }
  throw new Error('expected a refusal');
}

describe('a run too big for the machine', () => {
  it('is refused with the point and the figure it needs when the host has too little available', () => {
    const planned = plan('vector-function', { elements: 500_000_000 }, 'cuda:0');
    const e = refusal(() => checkPlanFits(planned, 8 * GiB, env.devices.devices));
    expect(e.code).toBe('INVALID_PARAMS');
    expect(e.message).toBe('The point "CPU, one thread" needs 11.2 GiB of host memory, more than the 7.5 GiB this machine has available now (beside what the system and GPU Lab themselves need): choose a smaller size');
    expect(e.details).toMatchObject({ point: 'CPU, one thread', memory: 'host', needBytes: 12e9 });
    // On a machine with 24 GiB available it runs.
    expect(() => checkPlanFits(planned, 24 * GiB, env.devices.devices)).not.toThrow();
  });

  it('is refused when a device-to-device copy needs more than the GPU has in all', () => {
    const planned = plan('transfer', { maxBytes: 16 * GiB }, 'cuda:0');
    // The H100's 80 GB hold two 16 GiB buffers.
    expect(() => checkPlanFits(planned, 200 * GiB, env.devices.devices)).not.toThrow();
    const small = env.devices.devices.map((d) => (d.kind === 'cuda' ? { ...d, memoryBytes: 24 * GiB } : d));
    const e = refusal(() => checkPlanFits(planned, 200 * GiB, small));
    expect(e.message).toBe('The point "device→device, 16 GiB" needs 32 GiB of GPU memory, more than cuda:0 (NVIDIA H100 80GB HBM3, 24 GiB in all) can give a program: choose a smaller size');
  });

  it('passes every lab at its defaults on the recorded H100 and on a machine without a GPU', () => {
    const cpuOnly = { ...env, devices: { ...env.devices, devices: env.devices.devices.filter((d) => d.kind === 'cpu') } };
    for (const lab of LABS) {
      expect(() => checkPlanFits(plan(lab.descriptor.id, {}, 'cuda:0'), 16 * GiB, env.devices.devices)).not.toThrow();
      expect(() => checkPlanFits(plan(lab.descriptor.id, {}, 'cpu', cpuOnly), 4 * GiB, cpuOnly.devices.devices)).not.toThrow();
    }
  });

  it('reads what Linux says is available, not the free memory alone', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'gpu-lab-meminfo-')), 'meminfo');
    writeFileSync(file, 'MemTotal:       24000000 kB\nMemFree:         1000000 kB\nMemAvailable:   20000000 kB\n');
    expect(availableHostBytes(file)).toBe(20_000_000 * 1024);
    expect(availableHostBytes('/proc/meminfo')).toBeGreaterThan(0);
  });
});

describe('a point\'s footprint', () => {
  it('is the host memory its CPU op allocates, for every CPU point of every lab', async () => {
    const { measure } = await import('../../../main/host/ops/index.ts');
    const controller = new AbortController();
    const cpuOnly = { ...env, devices: { ...env.devices, devices: env.devices.devices.filter((d) => d.kind === 'cpu') } };
    const small: Record<string, Record<string, unknown>> = {
      dtypes: { n: 64 },
      matmul: { n: 64 },
      'vector-function': { elements: 10_000 },
      'elementwise-breakeven': { minExponent: 3, maxExponent: 4 },
      'matmul-breakeven': { sizes: [32, 64] },
      'timing-pitfalls': { n: 64 },
    };
    let checked = 0;
    for (const [labId, params] of Object.entries(small)) {
      for (const p of plan(labId, params, 'cpu', cpuOnly)) {
        if (!p.measurement) continue;
        const { MEASUREMENT } = await import('../../../main/common/measurement.ts');
        const m = MEASUREMENT.parse({ ...p.measurement, budgetSeconds: 0.01, warmup: 0, repeats: 1 });
        // Measured once before it is counted: a CPU GEMM's first point of a type and size also times the BLAS
        // libraries (host/blas-choice.ts), once per boot, on the point's own buffers and a few of at most 3 × 256²
        // elements of its own.
        await measure(m, { signal: controller.signal, onProgress: () => undefined }).catch(() => undefined);
        // Its inputs, kept for the next point that asks for them, let go: the point makes all it holds.
        releaseInputs();
        made.length = 0;
        await measure(m, { signal: controller.signal, onProgress: () => undefined }).catch(() => undefined);
        expect(made.reduce((s, b) => s + b, 0), `${labId} ${p.label}`).toBe(measurementFootprint(p.measurement).hostBytes);
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(20);
  }, 120_000);
});
