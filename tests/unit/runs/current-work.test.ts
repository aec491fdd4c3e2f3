// A recorded run reads with today's work counts and peaks: the H100 runs recorded before the peak table and the
// vector function's recount no longer say 183 % of the fp64 peak or 24 B an element for three passes.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

import { shareOfPeak } from '../../../main/common/run-record.ts';
import type { RunRecord } from '../../../main/common/run-record.ts';
import { readRunRecord } from '../../../main/common/run-record-read.ts';
import { STORED_RECORD } from '../../../main/runs/stored-record.ts';

const H100_RUNS = ['dtypes', 'matmul', 'vector-function', 'transfer', 'elementwise-breakeven', 'matmul-breakeven', 'timing-pitfalls'];

const json = (name: string): unknown => JSON.parse(readFileSync(join(process.cwd(), 'tests/fixtures/runs', `${name}.json`), 'utf8'));

// The record as stored (version 1, in this version's words), and as the app reads it (its work and peaks counted as
// this version counts them, once, as it is read).
function recorded(name: string): RunRecord {
  const r = readRunRecord(json(name));
  if (!r.ok) throw new Error(r.message);
  return r.record;
}
const readAsApp = (name: string): RunRecord => STORED_RECORD.parse(json(name));

describe('a recorded run, read', () => {
  it('reads the H100\'s DGEMM against its fp64 tensor cores, as NVIDIA states them: 91 %, not 183 %', () => {
    const stored = recorded('h100-dtypes').points.find((p) => p.key === 'gpu-fp64');
    const read = readAsApp('h100-dtypes').points.find((p) => p.key === 'gpu-fp64');
    expect(stored && shareOfPeak(stored)).toBeGreaterThan(1.8);
    expect(read?.peak).toMatchObject({ name: 'fp64-tensor', unit: 'GFLOP/s', value: 67_000, source: 'datasheet' });
    expect(read && shareOfPeak(read)).toBeCloseTo(0.9145, 3);
    // The samples and the median are the record's: only the yardstick changed.
    expect(read?.stats?.median).toBe(stored?.stats?.median);
  });

  it('counts the vector function\'s three passes at 56 B an element, its rate that work ÷ the same median', () => {
    const read = readAsApp('h100-vector-function').points.find((p) => p.key === 'gpu-unfused');
    expect(read?.work.bytes).toBe(56 * 5_000_000);
    expect(read?.gbps).toBeCloseTo((56 * 5_000_000) / ((read?.stats?.median ?? NaN) * 1e6), 6);
    // Of the H100 SXM's 3.35 TB/s (its datasheet's), not the 3.352 the memory clock gives.
    expect(read?.peak).toMatchObject({ name: 'memory', value: 3350, source: 'datasheet' });
    expect(read && shareOfPeak(read)).toBeCloseTo(0.7778, 3);
  });

  it('reads no rate and no share of a peak for a time that mixes copies and kernels, the course’s code’s included', () => {
    const file = (name: string): unknown => JSON.parse(readFileSync(join(process.cwd(), 'tests/fixtures/peer-runs', `${name}.json`), 'utf8'));
    const peers = (name: string): RunRecord => {
      const r = readRunRecord(file(name));
      if (!r.ok) throw new Error(r.message);
      return r.record;
    };
    for (const [name, series] of [['h100-vector-function-peers', ['gpu-transfers', 'cupy-copies']], ['h100-matmul-breakeven-peers', ['gpu-transfers', 'torch-transfers']], ['h100-matmul-peers', ['gpu-transfers', 'torch-copies']], ['h100-timing-pitfalls-peers', ['gpu-no-sync', 'torch-no-sync']]] as const) {
      const stored = peers(name);
      // As recorded, CuPy's copies had 22.23 GB/s and 0.7 % of the memory's bandwidth.
      expect(stored.points.some((p) => (series as readonly string[]).includes(p.series) && (p.gbps !== null || p.gflops !== null)), name).toBe(true);
      const read = STORED_RECORD.parse(file(name)).points.filter((p) => (series as readonly string[]).includes(p.series) && p.status === 'ok');
      expect(read.length, name).toBeGreaterThan(0);
      for (const p of read) expect([p.gbps, p.gflops, p.peak ?? null], `${name} ${p.key}`).toEqual([null, null, null]);
    }
  });

  for (const lab of H100_RUNS) {
    it(`h100-${lab}: no GPU point over 100 % of its peak`, () => {
      const over = readAsApp(`h100-${lab}`).points.filter((p) => (shareOfPeak(p) ?? 0) > 1);
      expect(over.map((p) => `${p.key}: ${shareOfPeak(p)} of ${p.peak?.name}`)).toEqual([]);
    });
  }
});
