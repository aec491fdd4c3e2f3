// The kernel sources the labs name, read for the UI: only a file some lab lists as a CUDA or CPU kernel is served,
// whatever path is asked for, so a request cannot read anything else on the machine.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import type { KernelSourceText } from '../common/contract/labs.ts';
import { GpuLabError } from '../common/errors.ts';
import type { LabDescriptor } from '../common/lab-descriptor.ts';

// Sources sit at the repository root: two folders up from main/sources/, three from dist/main/sources/. In the
// installed app they are resources beside app.asar, four up from app.asar/dist/main/sources/: the command line finds
// them there (the window passes its resources folder first).
export function defaultSourceRoots(): string[] {
  const here = fileURLToPath(new URL('.', import.meta.url));
  return [join(here, '..', '..'), join(here, '..', '..', '..'), join(here, '..', '..', '..', '..')];
}

export function kernelFiles(labs: readonly LabDescriptor[]): string[] {
  const files = labs.flatMap((l) => l.kernels.filter((k) => k.kind !== 'library').map((k) => k.file));
  return [...new Set(files)].sort();
}

export async function readKernelSource(file: string, labs: readonly LabDescriptor[], roots: readonly string[]): Promise<KernelSourceText> {
  const allowed = kernelFiles(labs);
  if (!allowed.includes(file)) {
    throw new GpuLabError('NOT_FOUND', `"${file.slice(0, 200)}" is not a kernel source of any lab; the sources are ${allowed.join(', ')}`, { file: file.slice(0, 200) });
  }
  const language = file.endsWith('.cu') || file.endsWith('.cuh') ? 'cuda' : file.endsWith('.py') ? 'python' : 'cpp';
  return { file, language, text: await readInstalledSource(file, roots) };
}

// The text of a source installed with GPU Lab (`file` from the repository root), from the first root holding it.
// Callers pass only paths they name themselves: a lab's kernels, a playground exercise's.
export async function readInstalledSource(file: string, roots: readonly string[]): Promise<string> {
  for (const root of roots) {
    try {
      return await readFile(join(root, file), 'utf8');
    } catch {
      // Not under this root; try the next.
    }
  }
  throw new GpuLabError('NOT_FOUND', `The source ${file} is not installed with this copy of GPU Lab (looked in ${roots.join(', ')})`, { file });
}
