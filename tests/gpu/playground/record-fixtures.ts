// Records the kernel runs under tests/fixtures/kernel-runs/ on the GPU machine, through the real service and
// compute host: every exercise's starter (verified, with its comparisons), a compile error, two failed
// verifications, a kernel stopped by the watchdog and an out-of-bounds write. Usage:
//   node tests/gpu/playground/record-fixtures.ts OUT_DIR
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { KernelRunRequest } from '../../../main/common/playground.ts';
import { EXERCISES } from '../../../main/common/exercises.ts';
import { createLabHost } from '../../../main/app/lab-host.ts';

const out = process.argv[2];
if (!out) throw new Error('usage: record-fixtures.ts OUT_DIR');
mkdirSync(out, { recursive: true });
const root = join(import.meta.dirname, '..', '..', '..');
const read = (file: string): string => readFileSync(join(root, file), 'utf8');
const host = createLabHost({ dataDir: mkdtempSync(join(tmpdir(), 'gpu-lab-record-')), warn: () => undefined });

async function record(name: string, request: KernelRunRequest): Promise<void> {
  const run = await host.playground.runKernel(request);
  copyFileSync(join(host.kernels.runsDir, `${run.id}.json`), join(out ?? '.', `h100-${name}.json`));
  process.stdout.write(`${name}: ${run.status}${run.error ? ` ${run.error.code}` : ''} ${run.result?.throughput ? `${run.result.throughput.medianMs.toFixed(4)} ms` : ''}\n`);
}

const saxpy = read('shaders/playground/saxpy.starter.cu');
try {
  for (const def of EXERCISES) {
    const starter = def.kernels.find((k) => k.kind === 'starter');
    if (starter) await record(`${def.id}-starter`, { exercise: def.id, source: read(starter.file), fileName: `${def.id}.cu` });
  }
  await record('saxpy-compile-error', { exercise: 'saxpy', source: saxpy.replace('out[i] = a * x[i] + y[i];', 'out[i] = a * x[i] + q;'), fileName: 'saxpy.cu' });
  await record('saxpy-off-by-one', { exercise: 'saxpy', source: saxpy.replace('if (i < n)', 'if (i < n - 1)'), fileName: 'saxpy.cu' });
  await record('reduction-race', { exercise: 'reduction', source: read('shaders/playground/reduction.starter.cu').replaceAll('__syncthreads();', ''), fileName: 'reduction.cu' });
  await record('saxpy-endless', { exercise: 'saxpy', source: saxpy.replace('if (i < n)', 'for (const long long start = clock64(); clock64() >= start;) {\n  }\n  if (i < n)'), fileName: 'saxpy.cu' });
  await record('saxpy-out-of-bounds', { exercise: 'saxpy', source: saxpy.replace('out[i] = a * x[i] + y[i];', 'out[i + (size_t(1) << 34)] = a * x[i] + y[i];'), fileName: 'saxpy.cu' });
} finally {
  await host.dispose();
}
