// What each lab asks of the Python peers: the course's own code planned beside the engine's series, on the engine's
// measurement (same op, inputs, seed and size), read with the clock the lab's comparison needs; waived with the reason
// where the interpreter lacks the library or the shape does not suit it; absent where the run asks for no peers.
import { describe, expect, it } from 'vitest';

import { validateParams } from '../../../main/common/params.ts';
import type { PeersReport } from '../../../main/common/peer-protocol.ts';
import { findLab } from '../../../main/labs/index.ts';
import { intMmTakes } from '../../../main/labs/dtypes.ts';
import { SEED_COPY_BYTES } from '../../../main/labs/transfer.ts';
import { labMessage } from '../../../main/labs/lab-text.ts';
import type { Lab, PlannedPoint } from '../../../main/labs/lab.ts';
import { WITH_GPU } from '../labs/synthetic.ts';

const found = (cuda: boolean): PeersReport => ({
  interpreter: 'python3',
  available: true,
  probe: {
    python: '3.12.3',
    executable: '/usr/bin/python3',
    libraries: Object.fromEntries(['numpy', 'torch', 'cupy', 'numba'].map((l) => [l, { found: true as const, version: '2.11.0', cudaAvailable: cuda, devices: cuda ? ['H100'] : [] }])),
  },
});

function lab(id: string): Lab {
  const l = findLab(id);
  if (!l) throw new Error(`no lab ${id}`);
  return l;
}

function plan(id: string, params: Record<string, unknown> = {}, report: PeersReport | null = found(true), asked = ['torch'] as const): PlannedPoint[] {
  const l = lab(id);
  return l.plan(validateParams(id, l.descriptor.parameters, params), { ...WITH_GPU, peers: { asked: [...asked], report } });
}

const peerOf = (p: PlannedPoint) => (p.measurement as { peer?: { library: string; code: string; timeTime?: boolean } } | null)?.peer;

describe('the peers each lab plans', () => {
  it('every lab with PyTorch series plans them only when asked, and each descriptor marks them as PyTorch', () => {
    for (const id of ['transfer', 'dtypes', 'elementwise-breakeven', 'matmul-breakeven', 'timing-pitfalls', 'matmul']) {
      const l = lab(id);
      const torchSeries = l.descriptor.series.filter((s) => s.peer === 'torch').map((s) => s.key);
      expect(torchSeries.length, id).toBeGreaterThan(0);
      const withPeers = plan(id);
      const planned = new Set(withPeers.filter((p) => peerOf(p)?.library === 'torch').map((p) => p.series));
      expect([...planned].sort(), id).toEqual([...new Set(withPeers.filter((p) => torchSeries.includes(p.series)).map((p) => p.series))].sort());
      expect(planned.size, id).toBeGreaterThan(0);
      const without = l.plan(validateParams(id, l.descriptor.parameters, {}), WITH_GPU);
      expect(without.filter((p) => torchSeries.includes(p.series)), id).toEqual([]);
    }
  });

  it('transfer: the article\'s PyTorch copy at every size, the others at its sizes and the largest, as synchronous copies of the same bytes; the largest pinned copy on both sides sampled to ±1 %', () => {
    const points = plan('transfer', { directions: ['h2d', 'd2h'] });
    const sizes = [...new Set(points.filter((p) => p.series === 'h2d-pinned-sync').map((p) => p.x))];
    for (const series of ['torch-h2d-pageable', 'torch-h2d-pinned', 'torch-d2h-pageable', 'torch-d2h-pinned']) {
      const torch = points.filter((p) => p.series === series);
      expect(torch.map((p) => p.x)).toEqual(series === 'torch-h2d-pageable' ? sizes : [...SEED_COPY_BYTES, sizes.at(-1)]);
      for (const p of torch) expect(p.measurement).toMatchObject({ op: 'copy', mode: 'sync', direction: series.split('-')[1], hostMemory: series.split('-')[2], bytes: p.x, seed: 1 });
    }
    const largest = sizes.at(-1);
    for (const series of ['h2d-pinned-sync', 'd2h-pinned-sync', 'torch-h2d-pinned', 'torch-d2h-pinned']) {
      for (const p of points.filter((q) => q.series === series)) expect((p.measurement as { targetFraction?: number }).targetFraction, `${series} ${p.x}`).toBe(p.x === largest ? 0.01 : undefined);
    }
    expect(points.filter((p) => p.series === 'h2d-pageable-sync').every((p) => (p.measurement as { targetFraction?: number }).targetFraction === undefined)).toBe(true);
  });

  it('transfer: only the directions and host memory the run asked for', () => {
    const series = new Set(plan('transfer', { directions: ['d2h'], hostMemory: ['pinned'] }).map((p) => p.series));
    expect([...series].filter((s) => s.startsWith('torch'))).toEqual(['torch-d2h-pinned']);
  });

  it('dtypes: a PyTorch GEMM per dtype on the engine’s GEMM; int8 waived, saying why, where torch._int_mm refuses N', () => {
    const points = plan('dtypes', { n: 4096 });
    const torch = points.filter((p) => p.series === 'torch');
    expect(torch.map((p) => p.key)).toEqual(['fp64', 'fp32', 'tf32', 'fp16', 'bf16', 'int8'].map((d) => `torch-${d}`));
    for (const p of torch) {
      const engine = points.find((q) => q.key === p.key.replace('torch', 'gpu'));
      expect({ ...p.measurement, peer: undefined }).toEqual({ ...engine?.measurement, peer: undefined });
    }
    for (const n of [100, 16, 1001]) {
      const int8 = plan('dtypes', { n }).find((p) => p.key === 'torch-int8');
      expect(int8?.measurement, `N = ${n}`).toBeNull();
      expect(int8?.waived).toContain(`N = ${n}`);
      expect(int8?.waived).toContain('torch._int_mm');
      // Said in the reader's language too.
      expect(int8?.waivedWhy && labMessage(int8.waivedWhy, 'es')).toContain(`N = ${n} no lo es`);
    }
    expect([4096, 24, 16, 17].map(intMmTakes)).toEqual([true, true, false, false]);
  });

  it('timing-pitfalls: the notebook’s clocks — none after the launch, time.time() after a synchronise, events, and a cold first call', () => {
    const points = plan('timing-pitfalls');
    const by = (s: string) => points.find((p) => p.series === s)?.measurement as Record<string, unknown> | undefined;
    expect(by('torch-no-sync')).toMatchObject({ clock: 'host-nosync' });
    expect(by('torch-events')?.clock ?? 'events').toBe('events');
    expect(by('torch-time-time')).toMatchObject({ clock: 'host', peer: { timeTime: true } });
    expect(by('torch-warm')).toMatchObject({ clock: 'host' });
    expect(by('torch-cold')).toMatchObject({ cold: true, warmup: 0, repeats: 1 });
    // Every one of them the same GEMM as the engine's.
    const engine = by('gpu-events');
    for (const s of ['torch-no-sync', 'torch-events', 'torch-time-time', 'torch-warm', 'torch-cold']) expect(by(s)).toMatchObject({ op: 'gemm', dtype: 'fp32', m: engine?.m, n: engine?.n, k: engine?.k, seed: engine?.seed });
  });

  it('the break-even labs: PyTorch’s CPU and its GPU both ways, the GPU on the host clock as the engine’s', () => {
    const mb = plan('matmul-breakeven', { sizes: [100, 1000] });
    expect(mb.filter((p) => p.series === 'torch-cpu').map((p) => p.device)).toEqual(['cpu', 'cpu']);
    for (const s of ['torch-transfers', 'torch-resident']) expect(mb.filter((p) => p.series === s).map((p) => [p.clock, (p.measurement as { clock?: string }).clock])).toEqual([['host', 'host'], ['host', 'host']]);
    const eb = plan('elementwise-breakeven', { ops: ['exp'], maxExponent: 4 });
    expect(new Set(eb.filter((p) => peerOf(p)).map((p) => p.series))).toEqual(new Set(['exp-torch-cpu', 'exp-torch-transfers', 'exp-torch-resident']));
    expect(lab('elementwise-breakeven').descriptor.series.find((s) => s.key === 'exp-torch-resident')?.baseline).toBe('exp-torch-cpu');
  });

  it('waives every PyTorch point with the reason where torch has no CUDA, and the GPU ones where there is no GPU', () => {
    const noCuda = plan('transfer', { directions: ['h2d'] }, found(false)).filter((p) => p.series.startsWith('torch'));
    expect(noCuda.length).toBeGreaterThan(0);
    for (const p of noCuda) {
      expect(p.waived).toMatch(/torch 2\.11\.0 has no working CUDA/);
      expect(p.waivedWhy && labMessage(p.waivedWhy, 'es')).toMatch(/torch 2\.11\.0 no tiene CUDA que funcione aquí/);
    }
    const noPython = plan('matmul-breakeven', { sizes: [100] }, { interpreter: '/opt/py', available: false, reason: 'There is no Python interpreter "/opt/py"' }).filter((p) => peerOf(p) || p.series.startsWith('torch'));
    expect(noPython.length).toBe(3);
    for (const p of noPython) expect(p.waived).toContain('/opt/py');
  });
});
