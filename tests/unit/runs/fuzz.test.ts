// Random payloads against startRun's validation (the contract's door for the shape, then the lab for the values) and
// against the compute host: every payload either runs or is rejected with a typed code, and none brings the host
// down.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { checkArgs } from '../../../main/common/api-dispatch.ts';
import type { StartRunRequest } from '../../../main/common/contract/runs.ts';
import { GpuLabError } from '../../../main/common/errors.ts';
import { LABS } from '../../../main/labs/index.ts';
import { createLabHost } from '../../../main/app/lab-host.ts';
import { validateRunRequest } from '../../../main/runs/lab-runner.ts';
import { mulberry32 } from '../seeded-random.ts';

function anyValue(r: () => number, depth = 0): unknown {
  const pick = Math.floor(r() * 14);
  switch (pick) {
    case 0: return Math.floor(r() * 20) - 5;
    case 1: return r() * 1e6 - 5e5;
    case 2: return Number.NaN;
    case 3: return Number.POSITIVE_INFINITY;
    case 4: return 2 ** 53 + 2;
    case 5: return null;
    case 6: return undefined;
    case 7: return ['add', 'mul', 'exp', 'fp16', 'h2d', '', '💥', 'x'.repeat(300)][Math.floor(r() * 8)];
    case 8: return r() < 0.5;
    case 9: return depth < 2 ? Array.from({ length: Math.floor(r() * 4) }, () => anyValue(r, depth + 1)) : [];
    case 10: return depth < 2 ? { n: anyValue(r, depth + 1), __proto__: { polluted: true } } : {};
    case 11: return Math.floor(r() * 3) * 100;
    case 12: return '7000';
    default: return -0;
  }
}

function payload(r: () => number): unknown {
  const lab = LABS[Math.floor(r() * LABS.length)];
  const names = lab?.descriptor.parameters.map((p) => p.name) ?? [];
  const params: Record<string, unknown> = {};
  const count = Math.floor(r() * 4);
  for (let i = 0; i < count; i++) {
    const name = r() < 0.85 ? names[Math.floor(r() * names.length)] ?? 'n' : ['nope', 'constructor', '__proto__', ''][Math.floor(r() * 4)] ?? 'x';
    params[name] = anyValue(r);
  }
  const shape = r();
  if (shape < 0.03) return anyValue(r);
  return {
    lab: r() < 0.9 ? lab?.descriptor.id : anyValue(r),
    ...(r() < 0.6 ? { device: ['cpu', 'cuda:0', 'cuda:99', 'gpu', 'cuda:-1', 7][Math.floor(r() * 6)] } : {}),
    ...(r() < 0.9 ? { params: r() < 0.95 ? params : anyValue(r) } : {}),
    ...(r() < 0.05 ? { extra: true } : {}),
  };
}

const dataDir = mkdtempSync(join(tmpdir(), 'gpu-lab-fuzz-'));
const host = createLabHost({ dataDir, supervisor: { log: (_line: string) => undefined }, warn: () => undefined });
afterAll(() => host.dispose());

describe('fuzzing startRun', () => {
  it('accepts or rejects 2000 random payloads, at the door with INVALID_ARGUMENT or by the lab with INVALID_PARAMS, never anything else', () => {
    const r = mulberry32(20260101);
    let accepted = 0;
    for (let i = 0; i < 2000; i++) {
      const p = payload(r);
      try {
        const [request] = checkArgs('runs.startRun', [p]);
        const { lab, params } = validateRunRequest(request as StartRunRequest);
        // Whatever was accepted is what the lab allows: every value of its type, in its range, of its choices.
        for (const d of lab.descriptor.parameters) {
          const v = params[d.name];
          const where = `${lab.descriptor.id}.${d.name} = ${JSON.stringify(v)} from ${JSON.stringify(p)}`;
          if (d.kind === 'integer' || d.kind === 'number') {
            expect(typeof v === 'number' && v >= d.min && v <= d.max && (d.kind === 'number' || Number.isInteger(v)), where).toBe(true);
          } else if (d.kind === 'integer-list') {
            expect(Array.isArray(v) && v.length > 0 && v.length <= d.maxItems && v.every((x) => typeof x === 'number' && Number.isInteger(x) && x >= d.min && x <= d.max), where).toBe(true);
          } else if (d.kind === 'choice') {
            expect(d.choices.includes(v as string), where).toBe(true);
          } else {
            expect(Array.isArray(v) && v.length > 0 && v.every((x) => d.choices.includes(x as string)), where).toBe(true);
          }
        }
        accepted++;
      } catch (err) {
        expect(err, JSON.stringify(p)).toBeInstanceOf(GpuLabError);
        expect(['INVALID_ARGUMENT', 'INVALID_PARAMS']).toContain((err as GpuLabError).code);
        expect((err as GpuLabError).message.length).toBeGreaterThan(10);
      }
    }
    // Both paths exercised.
    expect(accepted).toBeGreaterThan(50);
    expect(accepted).toBeLessThan(1950);
  });

  it('sends 300 random measurements to the compute host: each measures or is refused with a code, the host stays up', async () => {
    await host.devices.listDevices();
    const pid = host.supervisor.pid;
    const r = mulberry32(7);
    const ops = ['add', 'mul', 'exp', 'vector-function', 'gemm', 'copy', 'empty', 'sqrt'];
    const codes = new Set<string>();
    for (let i = 0; i < 300; i++) {
      const size = r() < 0.8 ? Math.floor(r() * 300) - 2 : anyValue(r);
      const m: Record<string, unknown> = {
        op: ops[Math.floor(r() * ops.length)],
        variant: ['single', 'threads', 'kernel', 'blas', 'blocked', 'fused', 'naive'][Math.floor(r() * 7)],
        dtype: ['fp32', 'fp64', 'fp16', 'int8', 'q4'][Math.floor(r() * 5)],
        elements: size,
        m: size, n: Math.floor(r() * 40) + 1, k: Math.floor(r() * 40) + 1,
        a: 1, b: 2, c: 3,
        direction: 'h2d', hostMemory: 'pinned', mode: 'sync', bytes: size,
        device: r() < 0.9 ? 'cpu' : anyValue(r),
        warmup: Math.floor(r() * 3),
        repeats: r() < 0.95 ? Math.floor(r() * 4) + 1 : anyValue(r),
        seed: Math.floor(r() * 100),
      };
      // Leave out the fields another op would reject, most of the time, so that some payloads are valid.
      if (r() < 0.8) {
        const keep: Record<string, string[]> = {
          add: ['variant', 'elements'], mul: ['variant', 'elements'], exp: ['variant', 'elements'],
          'vector-function': ['variant', 'elements', 'a', 'b', 'c'], gemm: ['variant', 'dtype', 'm', 'n', 'k'],
          copy: ['direction', 'hostMemory', 'mode', 'bytes'], empty: [],
        };
        const wanted = new Set([...(keep[String(m.op)] ?? []), 'op', 'device', 'warmup', 'repeats', 'seed']);
        for (const key of Object.keys(m)) if (!wanted.has(key)) delete m[key];
      }
      try {
        const result = await host.supervisor.measure(m as never, { timeoutMs: 30_000 });
        // Every measured op carries its verdict and it passed; only the empty op (nothing to check) and copies
        // (their bytes checked natively) have none.
        if (m.op === 'empty' || m.op === 'copy') expect(result.verification).toBeNull();
        else expect(result.verification?.passed, JSON.stringify(m)).toBe(true);
        codes.add('ok');
      } catch (err) {
        const code = (err as GpuLabError).code;
        expect(['INVALID_ARGUMENT', 'UNSUPPORTED_OPERATION', 'CUDA_UNAVAILABLE', 'BLAS_UNAVAILABLE']).toContain(code);
        codes.add(code);
      }
    }
    expect(codes.has('ok')).toBe(true);
    expect(codes.has('INVALID_ARGUMENT')).toBe(true);
    expect(host.supervisor.pid).toBe(pid);
    expect(host.supervisor.restarts).toBe(0);
  });

  it('rejects bad payloads through the real startRun and still runs a good one afterwards', async () => {
    const r = mulberry32(99);
    for (let i = 0; i < 50; i++) {
      const p = { lab: 'matmul', device: 'cpu', params: { n: anyValue(r), repeats: -1 } };
      await expect(host.runs.startRun(p as never)).rejects.toMatchObject({ code: 'INVALID_PARAMS' });
    }
    const { runId } = await host.runs.startRun({ lab: 'matmul', device: 'cpu', params: { n: 32, repeats: 2, cpuRepeats: 2 } });
    await host.runs.whenIdle();
    expect((await host.runs.getRun(runId)).status).toBe('completed');
  });
});
