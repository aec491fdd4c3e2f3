// The course's own Python code beside the engine on a real GPU, every lab in one go: each PyTorch, CuPy and Numba
// series is measured and verified by the engine, or waived with its reason (never failed, never silently missing;
// the vector function's Numba CUDA series, the seed's Table 3 and its three clocks, measured),
// and where a peer and the engine measure the same thing the run says how far they agree (labs/analysis.ts) — torch's
// GEMMs against cuBLAS, its pinned copies against the engine's within 3 %. The figures are printed for the record;
// whether they agree is the finding's to say, not a threshold here.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';

import { createLabHost } from '../../main/app/lab-host.ts';
import type { LabHost } from '../../main/app/lab-host.ts';
import { translator } from '../../main/common/pure/i18n/index.ts';
import { ROW_STACK_RESTORED } from '../../main/common/peer-protocol.ts';
import { labMessage } from '../../main/labs/lab-text.ts';
import { labDeliverable } from '../../main/reports/deliverables/index.ts';
import { DEVICE, skipWithoutGpu } from './helpers.ts';

// The vector function's Numba CUDA series: the notebook's Table 3 (its ufunc with the copies it makes and on the GPU's
// arrays), each with the notebook's three clocks. numba-cuda 0.30 fails to import under NumPy 2.5 unless the worker
// restores numpy.row_stack (python/gpu_lab_peers/library_import.py): these must be measured, not waived.
const NUMBA_CUDA = ['numba-cuda-copies', 'numba-cuda-vectorize'].flatMap((s) => [s, `${s}-time`, `${s}-loop`]);

// Each lab with the agreement findings its run must carry (the peer and the engine both measured), and the peer
// series that must be measured there.
const LABS: { lab: string; params: Record<string, unknown>; agreements: string[]; measured?: string[] }[] = [
  { lab: 'matmul', params: { n: 4096, repeats: 5, cpuRepeats: 2, warmup: 1 }, agreements: ['torch-resident-agreement', 'torch-copies-agreement', 'numpy-matmul-agreement'] },
  { lab: 'vector-function', params: {}, agreements: ['cupy-fused-agreement', 'numba-njit-agreement'], measured: NUMBA_CUDA },
  { lab: 'transfer', params: { directions: ['h2d', 'd2h'], modes: ['sync'], repeats: 10 }, agreements: ['torch-h2d-pinned-agreement', 'torch-d2h-pinned-agreement', 'torch-h2d-pageable-agreement'] },
  { lab: 'dtypes', params: { n: 4096, repeats: 5 }, agreements: ['torch-fp32-agreement', 'torch-fp16-agreement', 'torch-tf32-agreement'] },
  { lab: 'elementwise-breakeven', params: { ops: ['add', 'exp'], pointsPerDecade: 1, repeats: 10 }, agreements: ['add-torch-resident-agreement', 'add-torch-cpu-agreement'] },
  { lab: 'matmul-breakeven', params: { sizes: [100, 500, 2000], repeats: 5 }, agreements: ['torch-resident-agreement', 'torch-transfers-agreement'] },
  { lab: 'timing-pitfalls', params: { repeats: 10 }, agreements: [] },
];

let host: LabHost;

describe('the Python peers beside the engine on a GPU', { skip: skipWithoutGpu }, () => {
  before(() => {
    host = createLabHost({ dataDir: mkdtempSync(join(tmpdir(), 'gpu-lab-peers-')), supervisor: { log: () => undefined }, warn: () => undefined });
  });
  after(async () => {
    await host.runs.whenIdle();
    await host.dispose();
  });

  for (const { lab, params, agreements, measured = [] } of LABS) {
    it(`${lab}: every peer series verified or waived with its reason, and the agreements said`, async () => {
      const { runId } = await host.runs.startRun({ lab, device: DEVICE, params, peers: ['numpy', 'torch', 'cupy', 'numba'] } as Parameters<LabHost['runs']['startRun']>[0]);
      await host.runs.whenIdle();
      const record = await host.runs.getRun(runId);
      // Kept where asked (GPU_LAB_PEER_RECORDS): the records a fixture of a real run with peers is taken from.
      const keep = process.env.GPU_LAB_PEER_RECORDS;
      if (keep) {
        mkdirSync(keep, { recursive: true });
        writeFileSync(join(keep, `h100-${lab}-peers.json`), JSON.stringify(record, null, 1));
      }
      const descriptor = (await host.labs.listLabs()).find((l) => l.id === lab);
      const peerSeries = new Set((descriptor?.series ?? []).filter((s) => s.peer).map((s) => s.key));
      const peers = record.points.filter((p) => peerSeries.has(p.series));
      assert.ok(peers.length > 0, `${lab}: no peer point planned`);
      for (const p of peers) {
        const what = p.status === 'ok' ? `${p.stats?.median.toFixed(4)} ms, ${p.implementation}, ${p.verification?.method} max rel err ${p.verification?.relativeError}` : `${p.status}: ${p.reason ?? p.error?.message ?? ''}`;
        console.log(`${lab} ${p.key}: ${what}`);
      }
      const failed = peers.filter((p) => p.status !== 'ok' && p.status !== 'waived');
      assert.deepEqual(failed.map((p) => `${p.key}: ${p.error?.code} ${p.error?.message}`), [], `${lab}: peer points that failed`);
      const unexplained = peers.filter((p) => p.status === 'waived' && !p.reason);
      assert.deepEqual(unexplained.map((p) => p.key), [], `${lab}: peer points waived without a reason`);
      const torch = peers.filter((p) => p.series.includes('torch'));
      assert.ok(torch.length === 0 || torch.some((p) => p.status === 'ok'), `${lab}: every PyTorch point waived: ${torch[0]?.reason}`);
      for (const f of record.findings.filter((x) => x.id.endsWith('-agreement') || x.id.startsWith('torch-') || x.id.includes('-torch-'))) {
        console.log(`${lab} finding ${f.id} [${f.tone}]: ${labMessage(f.message, 'en')}`);
      }
      const said = new Set(record.findings.map((f) => f.id));
      assert.deepEqual(agreements.filter((id) => !said.has(id)), [], `${lab}: agreement findings missing`);
      const unmeasured = measured.filter((series) => !record.points.some((p) => p.series === series && p.status === 'ok' && p.verification?.passed));
      assert.deepEqual(unmeasured, [], `${lab}: series that must be measured and verified: ${unmeasured.map((k) => record.points.find((p) => p.series === k)?.reason ?? 'absent').join('; ')}`);
      for (const p of record.points.filter((q) => q.implementation?.includes(ROW_STACK_RESTORED))) console.log(`${lab} ${p.key}: ${p.implementation}`);
      // The course deliverable as the PDF prints it: the seed's tables and the answers, for the record.
      assert.ok(descriptor, `${lab}: no descriptor`);
      const deliverable = labDeliverable({ record, lab: descriptor, t: translator('en') });
      for (const table of deliverable?.tables ?? []) console.log(`${lab} ${table.caption}\n${table.rows.map((r) => r.cells.map((c) => (typeof c === 'string' ? c : c.text)).join(' | ')).join('\n')}`);
      for (const a of deliverable?.answers ?? []) console.log(`${lab} ${a.question} ${a.answer}`);
    });
  }
});
