// Issue 39, item 1, on the GPU machine's host: the CPU GEMM at least 0.95× the best CPU library measured beside it
// (NumPy's `A @ B` and PyTorch's `torch.matmul` on the CPU, through the Python peers) at every N ≥ 500 of the matmul
// and matmul-breakeven labs, fp32 and fp64. Judged on medians with their 95 % intervals from the same run: the ratio
// of the medians at least 0.95, and the intervals never showing GPU Lab below 0.95× the peer (its fastest time in
// interval still slower than the peer's slowest over 0.95). Each size's three series run back to back, ours between
// the two peers; the figures are printed. Run where the Python peers are (GPU_LAB_PYTHON), with NumPy and PyTorch:
//   GPU_LAB_PYTHON=/opt/torch/.venv/bin/python node --test tests/gpu/cpu-gemm-peers.test.ts
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';

import { MEASUREMENT } from '../../main/common/measurement.ts';
import type { MeasurementResult } from '../../main/common/measurement.ts';
import { medianInterval, quantile } from '../../main/common/pure/statistics.ts';
import { measure } from '../../main/host/ops/index.ts';
import { peerWorker, probePeers } from '../../main/host/python-worker.ts';
import { hostBlas } from '../../main/host/blas-host.ts';
import { skipWithoutGpu } from './helpers.ts';

const SIZES = { fp32: [500, 1000, 2000, 5000, 7000], fp64: [500, 1000, 2000, 5000] } as const;
const PEERS = [
  { library: 'numpy', code: 'numpy-matmul' },
  { library: 'torch', code: 'torch-cpu' },
] as const;
const TARGET = 0.95;

const report = await probePeers(PEERS.map((p) => p.library));
const missing = PEERS.filter((p) => !report.available || report.probe.libraries[p.library]?.found !== true).map((p) => p.library);
const skip = skipWithoutGpu || (missing.length ? `the peers' interpreter lacks ${missing.join(' and ')}` : false);
// The probe's worker would keep this process alive where the suite is skipped.
if (skip) (await peerWorker()).stop();

interface Timed {
  label: string;
  medianMs: number;
  low: number;
  high: number;
  gflops: number;
  result: MeasurementResult;
}

async function timed(label: string, dtype: 'fp32' | 'fp64', n: number, peer?: (typeof PEERS)[number]): Promise<Timed> {
  // A second or a few a series: about 20 samples where they are short, the engine's floor of 6 (an interval) where
  // not.
  const flops = 2 * n ** 3;
  const m = MEASUREMENT.parse({ op: 'gemm', dtype, variant: 'blas', m: n, n, k: n, device: 'cpu', warmup: 1, repeats: 20, seed: n, minSampleMs: 20, budgetSeconds: Math.max(1, (flops / 1e12) * 6), ...(peer ? { peer } : {}) });
  const result = await measure(m, { signal: new AbortController().signal, onProgress: () => undefined });
  assert.equal(result.verification?.passed, true, `${label} N = ${n} ${dtype}: ${JSON.stringify(result.verification)}`);
  const sorted = [...result.hostMs].sort((a, b) => a - b);
  const medianMs = quantile(sorted, 0.5);
  const ci = medianInterval(result.hostMs);
  assert.ok(ci, `${label} N = ${n} ${dtype}: too few samples for an interval (${result.hostMs.length})`);
  return { label, medianMs, low: ci.low, high: ci.high, gflops: flops / (medianMs * 1e6), result };
}

const figure = (line: string): void => {
  process.stdout.write(`[cpu-gemm] ${line}\n`);
};

describe('the CPU GEMM beside NumPy and PyTorch on the CPU', { skip }, () => {
  after(async () => {
    // Why each library was chosen: every trial at each calibration size, for the record.
    for (const pick of await (await hostBlas()).picksMade()) {
      const interval = (t: (typeof pick.trials)[number]): string => (t.lowMs !== undefined && t.highMs !== undefined ? ` (${t.lowMs.toFixed(3)}–${t.highMs.toFixed(3)})` : '');
      figure(`chosen at N = ${pick.size} ${pick.dtype}: ${pick.library.origin} on ${pick.threads} threads; trials ${pick.trials.map((t) => `${t.library.split(' from ')[0]} [${t.library.split(', ').pop()}] ${t.threads}t ${t.medianMs.toFixed(3)} ms${interval(t)} ×${t.samples}`).join('; ')}`);
    }
    (await peerWorker()).stop();
  });

  for (const dtype of ['fp32', 'fp64'] as const) {
    for (const n of SIZES[dtype]) {
      it(`${dtype} N = ${n}: at least ${TARGET}× the best peer, on medians and intervals`, async () => {
        const numpy = await timed('NumPy', dtype, n, PEERS[0]);
        const ours = await timed('GPU Lab', dtype, n);
        const torch = await timed('PyTorch', dtype, n, PEERS[1]);
        const best = numpy.medianMs <= torch.medianMs ? numpy : torch;
        const ratio = best.medianMs / ours.medianMs;
        const row = (t: Timed): string => `${t.label} ${t.gflops.toFixed(0)} GFLOP/s (${t.medianMs.toFixed(3)} ms, interval ${t.low.toFixed(3)}–${t.high.toFixed(3)}, ${t.result.hostMs.length} samples)`;
        figure(`${dtype} N = ${n}: ${row(ours)} on ${ours.result.threads} threads; ${row(numpy)}; ${row(torch)}; ratio to the best (${best.label}) ${ratio.toFixed(3)}×`);
        figure(`${dtype} N = ${n}: GPU Lab ran ${ours.result.implementation}`);
        assert.ok(ratio >= TARGET, `${dtype} N = ${n}: GPU Lab at ${ratio.toFixed(3)}× ${best.label}'s median, under ${TARGET}×`);
        // The intervals show GPU Lab below 0.95× the peer where even its fastest time in interval is slower than the
        // peer's slowest divided by 0.95.
        for (const peer of [numpy, torch]) {
          assert.ok(ours.low <= peer.high / TARGET, `${dtype} N = ${n}: GPU Lab's interval (from ${ours.low.toFixed(3)} ms) lies wholly below ${TARGET}× ${peer.label}'s (to ${peer.high.toFixed(3)} ms)`);
        }
      });
    }
  }
});
