#!/usr/bin/env node
// npm run bench: `gpu-lab bench --device cpu` beside NumPy on the same machine, in one run, and the ratios the
// targets are stated in: GEMM fp32 at N = 2000 and 4000 against NumPy's A @ B, the vector function against NumPy's
// a*x**2 + b*y + c, and the harness's overhead per sample. Debian's python3-numpy (OpenBLAS) is the peer, run as
// `python3 -m gpu_lab_peers.tools.numpy_cpu` from the package's folder. `npm run bench -- --scale F` shrinks both
// alike (every size times F, as main/labs/bench-plan.ts scales the CPU bench).
import { spawnSync } from 'node:child_process';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const extra = process.argv.slice(2);
const scaleAt = extra.findIndex((a) => a === '--scale' || a.startsWith('--scale='));
const scaleText = scaleAt < 0 ? undefined : extra[scaleAt].startsWith('--scale=') ? extra[scaleAt].slice('--scale='.length) : extra[scaleAt + 1];
// The bench refuses a scale outside (0, 1] itself, before the peer runs.
const scale = scaleText === undefined ? 1 : Number(scaleText);
const scaled = (n) => Math.max(1, Math.round(n * scale));

const ours = spawnSync(process.execPath, [join(root, 'bin', 'gpu-lab.js'), 'bench', '--device', 'cpu', '--json', ...extra], {
  encoding: 'utf8',
  stdio: ['ignore', 'pipe', 'inherit'],
  maxBuffer: 64 << 20,
});
if (ours.status !== 0 && !ours.stdout.trim().startsWith('[')) process.exit(ours.status ?? 1);
const records = JSON.parse(ours.stdout);

const python = ['/usr/bin/python3', 'python3'].find((p) => spawnSync(p, ['-c', 'import numpy'], { stdio: 'ignore' }).status === 0);
let peers = {};
if (python) {
  const env = { ...process.env, PYTHONPATH: [join(root, 'python'), process.env.PYTHONPATH].filter(Boolean).join(delimiter), PYTHONDONTWRITEBYTECODE: '1' };
  const args = ['-m', 'gpu_lab_peers.tools.numpy_cpu', ...(scaleText === undefined ? [] : ['--scale', scaleText])];
  const r = spawnSync(python, args, { encoding: 'utf8', env, stdio: ['ignore', 'pipe', 'inherit'] });
  if (r.status === 0) peers = JSON.parse(r.stdout);
} else {
  console.log('NumPy not found: ratios against it are skipped (apt-get install python3-numpy).');
}

// Only verified rows have times; failed ones are listed at the end.
const find = (id, variant, size) => records.find((r) => r.verified && r.id === id && (!variant || r.variant === variant) && (!size || r.size === size));
const rows = [];
for (const n of [1000, 2000, 4000].map(scaled)) {
  const r = find('gemm-fp32', null, n);
  const p = peers[`gemm-fp32-${n}`];
  if (r) rows.push([`GEMM fp32 N=${n}`, r.medianMs, p, p ? `${(r.medianMs / p).toFixed(3)} × NumPy (target <= 1.10 at 2000, 4000)` : '']);
}
const g64 = find('gemm-fp64', null, scaled(2000));
const p64 = g64 && peers[`gemm-fp64-${g64.size}`];
if (g64) rows.push([`GEMM fp64 N=${g64.size}`, g64.medianMs, p64, p64 ? `${(g64.medianMs / p64).toFixed(3)} × NumPy` : '']);
for (const v of ['single', 'threads']) {
  const r = find('vector-function', v);
  const p = r && peers[`vector-function-${r.size}`];
  if (r) rows.push([`vector function ${r.size === 5_000_000 ? '5M' : r.size} fp64, ${v}`, r.medianMs, p, p ? `${(p / r.medianMs).toFixed(2)}× faster than NumPy${v === 'threads' ? ' (target >= 2)' : ''}` : '']);
}
const empty = find('empty');
if (empty) rows.push(['harness overhead (empty op)', empty.medianMs, undefined, `${(empty.medianMs * 1000).toFixed(3)} µs per sample (target < 2 µs)`]);

console.log(`\n${'workload'.padEnd(34)}${'ours (ms)'.padStart(12)}${'NumPy (ms)'.padStart(12)}  ratio`);
for (const [name, ms, peer, ratio] of rows) {
  console.log(`${name.padEnd(34)}${ms.toPrecision(4).padStart(12)}${(peer === undefined ? '—' : peer.toPrecision(4)).padStart(12)}  ${ratio}`);
}
const failed = records.filter((r) => !r.verified);
if (failed.length) {
  console.log(`\n${failed.length} measurement(s) FAILED verification: ${failed.map((r) => `${r.id}/${r.variant}/${r.size}`).join(', ')}`);
  process.exit(1);
}
