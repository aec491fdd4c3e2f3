// On a GPU no rate passes its peak: every lab's GPU series, run at small sizes through a real lab host, gives shares
// of their peak (main/common/pure/gpu-peaks.ts through main/labs/plan-helpers.ts gpuPeak) of at most 100 %. A share over
// 100 % is a defect: the peak is the wrong unit's (an fp64 GEMM read against the FMA lanes when cuBLAS used the
// tensor cores) or the work is counted twice; the failure names the point, its counted work, its median and its
// peak. The playground's memory-bound exercises are held to the same rule, and one whose data fits in L2 has no
// share of DRAM bandwidth at all. Every share is printed, for the record.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';

import { createLabHost } from '../../main/app/lab-host.ts';
import type { LabHost } from '../../main/app/lab-host.ts';
import { shareOfPeak } from '../../main/common/run-record.ts';
import type { PointResult } from '../../main/common/run-record.ts';
import { DEVICE, skipWithoutGpu } from './helpers.ts';

// Small enough to run in seconds, large enough that the memory-bound points leave L2 at their largest size.
const LABS: { lab: string; params: Record<string, unknown> }[] = [
  { lab: 'transfer', params: { maxBytes: 256 * 2 ** 20, repeats: 5, warmup: 1 } },
  { lab: 'dtypes', params: { n: 4096, repeats: 3, warmup: 1 } },
  { lab: 'matmul', params: { n: 2048, repeats: 3, cpuRepeats: 1, warmup: 1 } },
  { lab: 'vector-function', params: { elements: 20_000_000, repeats: 5, warmup: 1 } },
  { lab: 'elementwise-breakeven', params: { maxExponent: 7, pointsPerDecade: 1, repeats: 5, warmup: 1 } },
  { lab: 'matmul-breakeven', params: { sizes: [100, 500, 2000], repeats: 3, warmup: 1 } },
  { lab: 'timing-pitfalls', params: { repeats: 3 } },
];

function describePoint(lab: string, p: PointResult, share: number): string {
  const rate = p.peak?.unit === 'GB/s' ? `${p.gbps?.toFixed(1)} GB/s` : `${p.gflops?.toFixed(1)} ${p.peak?.unit}`;
  const work = `${p.work.flops} FLOP, ${p.work.bytes} B`;
  return `${lab} ${p.key}: ${rate} = ${work} ÷ ${p.stats?.median.toFixed(4)} ms, ${(share * 100).toFixed(1)} % of ${p.peak?.name} ${p.peak?.value.toFixed(1)} ${p.peak?.unit}`;
}

const root = join(import.meta.dirname, '..', '..');
let host: LabHost;

describe('shares of peak on a GPU', { skip: skipWithoutGpu }, () => {
  before(() => {
    host = createLabHost({ dataDir: mkdtempSync(join(tmpdir(), 'gpu-lab-peaks-')), supervisor: { log: () => undefined }, warn: () => undefined });
  });
  after(async () => {
    await host.runs.whenIdle();
    await host.dispose();
  });

  for (const { lab, params } of LABS) {
    it(`${lab}: every GPU point is at most 100 % of its peak`, async () => {
      const { runId } = await host.runs.startRun({ lab, device: DEVICE, params } as Parameters<LabHost['runs']['startRun']>[0]);
      await host.runs.whenIdle();
      const record = await host.runs.getRun(runId);
      assert.equal(record.status, 'completed', `${lab}: ${JSON.stringify(record.error)}`);
      const gpuPoints = record.points.filter((p) => p.device === DEVICE && p.status === 'ok');
      assert.ok(gpuPoints.length > 0, `${lab}: no GPU point measured`);
      const over: string[] = [];
      for (const p of gpuPoints) {
        const share = shareOfPeak(p);
        if (share === null) {
          console.log(`${lab} ${p.key}: no peak (${p.peak === null || p.peak === undefined ? 'none applies' : 'no rate'})`);
          continue;
        }
        const line = describePoint(lab, p, share);
        console.log(line);
        if (share > 1) over.push(line);
      }
      assert.deepEqual(over, [], `over 100 % of peak: the peak is the wrong unit's or the work is counted wrong:\n${over.join('\n')}`);
    });
  }

  it('the playground: a memory-bound kernel reads at most 100 % of DRAM bandwidth, and none where its data fits in L2', async () => {
    // The reduction's largest size, 2²³ floats (32 MiB), fits in an H100's 50 MiB of L2; saxpy's 2²⁵ (384 MiB moved)
    // does not.
    for (const [exercise, size, inL2] of [['reduction', 2 ** 23, true], ['saxpy', 2 ** 25, false]] as const) {
      const source = readFileSync(join(root, `shaders/playground/${exercise}.reference.cu`), 'utf8');
      const run = await host.playground.runKernel({ exercise, source, size, compare: true });
      const result = run.result;
      assert.ok(result?.throughput, `${exercise} at ${size}: ${run.status} ${JSON.stringify(result?.verification ?? null)}`);
      const rows = [{ name: 'yours', throughput: result.throughput }, ...result.comparisons.map((c) => ({ name: c.id, throughput: c.throughput }))];
      for (const r of rows) {
        const fraction = r.throughput?.peakFraction ?? null;
        console.log(`playground ${exercise} n=${size} ${r.name}: ${r.throughput?.rate.toFixed(1)} GB/s, ${fraction === null ? 'no share' : `${(fraction * 100).toFixed(1)} %`}`);
        if (inL2) assert.equal(fraction, null, `${exercise} at ${size}: its data fits in L2, so no share of DRAM bandwidth`);
        else if (fraction !== null) assert.ok(fraction <= 1, `${exercise} at ${size} ${r.name}: ${(fraction * 100).toFixed(1)} % of DRAM bandwidth`);
      }
    }
  });
});
