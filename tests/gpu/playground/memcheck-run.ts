// Runs every exercise's starter and reference kernels once, in this process, at small sizes that leave partial
// blocks and vector tails, for compute-sanitizer to watch (tests/gpu/playground-memcheck.test.ts starts it under
// `compute-sanitizer --tool memcheck`). Prints one line per exercise and exits 1 on any failure.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { EXERCISES } from '../../../main/common/exercises.ts';
import { runKernelJob } from '../../../main/host/kernel-run.ts';
import { kernelLaunch } from '../../../main/playground/descriptors.ts';

const root = join(import.meta.dirname, '..', '..', '..');
const read = (file: string): string => readFileSync(join(root, file), 'utf8');
// Odd sizes: the last block is partial, and n mod 4 ≠ 0 exercises the float4 kernels' scalar tails.
const SIZES = { 'polynomial-fp32': 100_003, 'polynomial-fp64': 100_003, saxpy: 100_003, reduction: 100_003, transpose: 257, sgemm: 257, multiply: 100_003, add: 100_003 } as const;

let failed = 0;
for (const def of EXERCISES) {
  const size = SIZES[def.id];
  const starter = def.kernels.find((k) => k.kind === 'starter');
  if (!starter) continue;
  // Each kernel launched as its launch header states, at this size.
  const launch = kernelLaunch(def, starter.file, read(starter.file), size);
  const references = def.kernels.filter((k) => k.kind === 'reference').map((k) => ({ id: k.id, file: k.file, entry: def.entry, text: read(k.file), launch: kernelLaunch(def, k.file, read(k.file), size) }));
  const controller = new AbortController();
  try {
    const r = await runKernelJob(
      { exercise: def.id, device: 'cuda:0', size, source: read(starter.file), fileName: starter.file.split('/').pop() ?? 'k.cu', launch, compare: true, references, seed: 11, listings: [] },
      { signal: controller.signal, onProgress: () => undefined },
    );
    // The launch from Python (Unit 10) runs in the worker's process, another program than the one memcheck watches here.
    const bad = [r.verification?.ok ? null : 'starter', ...r.comparisons.filter((c) => c.kind !== 'python' && !c.verified).map((c) => `${c.id}: ${c.error ?? ''}`)].filter(Boolean);
    if (bad.length) failed++;
    process.stdout.write(`${def.id} n=${size}: starter ${r.verification?.ok ? 'verified' : 'FAILED'}; ${r.comparisons.map((c) => `${c.id} ${c.verified ? 'verified' : `FAILED (${c.error ?? ''})`}`).join('; ')}\n`);
  } catch (err) {
    failed++;
    process.stdout.write(`${def.id}: ${(err as Error).message}\n`);
  }
}
process.exit(failed ? 1 : 0);
