#!/usr/bin/env node
// The CPU's elementwise and vector-function loops beside the course's own: GPU Lab's native loops (every thread, and
// one) against NumPy's operators and Numba's compiled loops (`@njit(parallel=True)`, and `@njit` on one core for
// the vector function), each measured by the engine on the same seeded inputs and verified like its own (the Python
// peers, main/host/ops/peer.ts), back to back. Prints each median with its 95 % interval and the ratios; a figure, not
// a test (issue 39, item 2: the loops stay at least as fast as Numba's and NumPy's). Needs an interpreter with NumPy
// and Numba (GPU_LAB_PYTHON, else python3):
//   GPU_LAB_PYTHON=/opt/torch/.venv/bin/python node scripts/bench-cpu-loops.mjs [--elements N]
import { MEASUREMENT } from '../main/common/measurement.ts';
import { medianInterval, quantile } from '../main/common/pure/statistics.ts';
import { measure } from '../main/host/ops/index.ts';
import { peerWorker } from '../main/host/python-worker.ts';

const args = process.argv.slice(2);
const at = args.indexOf('--elements');
const elements = at >= 0 ? Number(args[at + 1]) : 10_000_000;
if (!Number.isInteger(elements) || elements < 1) {
  process.stderr.write(`bench-cpu-loops: --elements: expected a positive integer, not ${args[at + 1]}\n`);
  process.exit(2);
}

const ctx = { signal: new AbortController().signal, onProgress: () => undefined };
const CASES = [
  { what: `add, ${elements} fp32`, base: { op: 'add', elements }, peers: [['numpy', 'numpy-cpu'], ['numba', 'numba-parallel']] },
  { what: `exp, ${elements} fp32`, base: { op: 'exp', elements }, peers: [['numpy', 'numpy-cpu'], ['numba', 'numba-parallel']] },
  { what: `a·x² + b·y + c, ${elements} fp64`, base: { op: 'vector-function', elements, a: 2, b: 3, c: 1 }, peers: [['numpy', 'numpy-notebook'], ['numba', 'numba-njit'], ['numba', 'numba-parallel']] },
];

async function series(label, fields) {
  const m = MEASUREMENT.parse({ ...fields, device: 'cpu', warmup: 2, repeats: 30, seed: 7, minSampleMs: 2, budgetSeconds: 1.5 });
  try {
    const r = await measure(m, ctx);
    if (!r.verification?.passed) return { label, error: `failed verification: ${JSON.stringify(r.verification?.mismatches?.slice(0, 2))}` };
    const median = quantile([...r.hostMs].sort((a, b) => a - b), 0.5);
    const ci = medianInterval(r.hostMs);
    return { label, median, ci, threads: r.threads };
  } catch (err) {
    return { label, error: `${err.code ?? ''} ${err.message}` };
  }
}

const ms = (v) => (v < 1 ? `${(v * 1000).toFixed(0)} µs` : `${v.toFixed(2)} ms`);
for (const c of CASES) {
  const rows = [await series('GPU Lab, every thread', { ...c.base, variant: 'threads' })];
  for (const [library, code] of c.peers) rows.push(await series(`${library} ${code}`, { ...c.base, variant: 'threads', peer: { library, code } }));
  rows.push(await series('GPU Lab, one thread', { ...c.base, variant: 'single' }));
  const ours = rows[0];
  process.stdout.write(`\n${c.what}\n`);
  for (const r of rows) {
    if (r.error) {
      process.stdout.write(`  ${r.label}: ${r.error}\n`);
      continue;
    }
    const ratio = r === ours || ours.error ? '' : `: ${(r.median / ours.median).toFixed(2)}× the time of GPU Lab's every-thread loop`;
    process.stdout.write(`  ${r.label}: ${ms(r.median)} (interval ${r.ci ? `${ms(r.ci.low)}–${ms(r.ci.high)}` : 'none'})${ratio}\n`);
  }
}
(await peerWorker()).stop();
