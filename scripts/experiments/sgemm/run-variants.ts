// SGEMM variants through the kernel playground at 4096² on the GPU machine, beside cuBLAS and the engine's tiled
// kernel, to pick the reference: every *.cu put in this folder (a kernel named sgemm, 256 threads a block, 128×128
// tiles of C). Usage: node scripts/experiments/sgemm/run-variants.ts [N]. The variants of NOTES.md are in commit
// 2750042; the one kept is shaders/cuda/sgemm_tiled.cuh.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createLabHost } from '../../../main/app/lab-host.ts';

const n = Number(process.argv[2] ?? 4096);
const dir = import.meta.dirname;
const host = createLabHost({ dataDir: mkdtempSync(join(tmpdir(), 'sgemm-variants-')), warn: () => undefined });
const launch = { grid: [Math.ceil(n / 128), Math.ceil(n / 128), 1] as [number, number, number], block: [256, 1, 1] as [number, number, number] };
try {
  let first = true;
  for (let round = 0; round < 2; round++) {
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.cu')).sort()) {
      const r = await host.playground.runKernel({ exercise: 'sgemm', source: readFileSync(join(dir, file), 'utf8'), size: n, ...launch, compare: first });
      const t = r.result?.throughput;
      const cmp = r.result?.comparisons.map((c) => `${c.id} ${c.throughput?.medianMs.toFixed(3)} ms`).join(', ');
      process.stdout.write(`round ${round} ${file}: ${r.status} ${t ? `${t.medianMs.toFixed(3)} ms ${(t.rate / 1000).toFixed(1)} TFLOP/s regs ${r.result?.launch?.registersPerThread} blocks/SM ${r.result?.launch?.blocksPerSm}` : (r.error?.message ?? r.result?.compile.log.slice(0, 300))}${cmp ? ` | ${cmp}` : ''}\n`);
      first = false;
    }
  }
} finally {
  await host.dispose();
}
