#!/usr/bin/env node
// Puts `gpu-lab bench --device cuda:0 --json` beside the PyTorch/CuPy peers (python/gpu_lab_peers/tools/cuda_peers.py,
// `PYTHONPATH=python python3 -m gpu_lab_peers.tools.cuda_peers`) and checks the targets of issue 3.
// Usage: node scripts/compare-peers.mjs ours.json peers.json (scripts/gpu-check.sh runs both and this).
import { readFileSync } from 'node:fs';

const [oursPath, peersPath] = process.argv.slice(2);
const ours = JSON.parse(readFileSync(oursPath, 'utf8'));
const peers = peersPath ? JSON.parse(readFileSync(peersPath, 'utf8')) : {};
const find = (id, variant) => ours.find((r) => r.id === id && (!variant || r.variant === variant));
const rows = [];
let failed = 0;
function row(name, mine, peer, ratioText, ok) {
  if (ok === false) failed++;
  rows.push([name, mine, peer, ratioText, ok === undefined ? '' : ok ? 'ok' : 'MISSED']);
}
const ms = (r) => (r ? r.medianMs : undefined);
const f = (v, d = 4) => (v === undefined || Number.isNaN(v) ? '—' : Number(v).toPrecision(d));

for (const [p, limit] of [['fp32', 1.03], ['tf32', 1.05], ['fp16', 1.05], ['bf16', 1.05], ['fp64', undefined], ['int8', undefined]]) {
  const r = find(`gemm-${p}`, 'resident');
  if (!r) continue;
  const peer = peers[`gemm-${p}-${r.size}`];
  const ratio = peer ? ms(r) / peer : undefined;
  row(`GEMM ${p} ${r.size}² resident (ms)`, f(ms(r)), f(peer), ratio ? `${ratio.toFixed(3)} × torch${limit ? ` (≤ ${limit})` : ''}` : '', limit && ratio ? ratio <= limit : undefined);
}
const wc = find('gemm-fp32', 'with-copies');
if (wc) row(`GEMM fp32 ${wc.size}² with copies (ms)`, f(ms(wc)), f(peers[`gemm-fp32-with-copies-${wc.size}`]), '');
const naive = find('sgemm-naive');
const tiled = find('sgemm-tiled');
if (naive && tiled) row(`SGEMM ${tiled.size} tiled vs naive (ms)`, f(ms(tiled)), f(ms(naive)), `${(ms(naive) / ms(tiled)).toFixed(2)}× faster (≥ 5)`, ms(naive) / ms(tiled) >= 5);
const d2d = find('d2d');
for (const v of ['fused', 'unfused', 'with-copies']) {
  const r = find('vector-function', v);
  if (!r) continue;
  const peerKey = { fused: 'elementwise-kernel', unfused: 'ufuncs', 'with-copies': 'with-copies' }[v];
  const peer = peers[`vector-function-${peerKey}-${r.size}`];
  let text = peer ? `${(ms(r) / peer).toFixed(3)} × CuPy ${peerKey}` : '';
  let ok;
  if (v === 'fused') {
    const share = d2d ? r.gbps / d2d.gbps : undefined;
    text += share ? `; ${r.gbps.toFixed(0)} GB/s = ${(100 * share).toFixed(1)} % of D2D (≥ 85 %)` : '';
    ok = (peer ? ms(r) <= peer : true) && (share ? share >= 0.85 : true);
  }
  row(`vector function ${r.size} ${v} (ms)`, f(ms(r)), f(peer), text, ok);
}
for (const [id, host] of [['h2d', 'pinned'], ['d2h', 'pinned'], ['h2d', 'pageable'], ['d2h', 'pageable']]) {
  const r = find(id, host);
  if (!r) continue;
  const peer = peers[`${id}-${host}-GBs`];
  const ratio = peer ? r.gbps / peer : undefined;
  row(`${id} ${host} ${(r.size / 2 ** 30).toFixed(2)} GiB (GB/s)`, f(r.gbps), f(peer), ratio ? `${(100 * ratio).toFixed(1)} % of torch${host === 'pinned' ? ' (≥ 97 %)' : ''}` : '', host === 'pinned' && ratio ? ratio >= 0.97 : undefined);
}
if (d2d) row(`d2d ${(d2d.size / 2 ** 30).toFixed(2)} GiB (GB/s, read + write)`, f(d2d.gbps), f(peers['d2d-GBs']), peers['d2d-GBs'] ? `${(100 * d2d.gbps / peers['d2d-GBs']).toFixed(1)} % of torch` : '');
for (const [v, key] of [['host-nosync', 'empty-launch-only-us'], ['host', 'empty-launch-sync-us'], ['events', undefined]]) {
  const r = find('empty', v);
  if (r) row(`empty kernel, ${v} (µs)`, f(r.medianMs * 1000), f(key ? peers[key] : undefined), '');
}
const unverified = ours.filter((r) => !r.verified);
console.log(`${'workload'.padEnd(40)}${'ours'.padStart(10)}${'peer'.padStart(10)}  comparison`);
for (const [name, mine, peer, text, ok] of rows) console.log(`${name.padEnd(40)}${mine.padStart(10)}${peer.padStart(10)}  ${text}${ok ? `  [${ok}]` : ''}`);
if (unverified.length) console.log(`FAILED verification: ${unverified.map((r) => `${r.id}/${r.variant}`).join(', ')}`);
console.log(failed || unverified.length ? `${failed} target(s) missed, ${unverified.length} unverified` : 'all targets met, all results verified');
process.exitCode = failed || unverified.length ? 1 : 0;
