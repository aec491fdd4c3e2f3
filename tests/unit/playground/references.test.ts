// Every kernel that comes with an exercise, starter and reference alike, is a student's file as it stands: what
// `gpu-lab kernel show EXERCISE --kernel ID` prints (and the app loads into the editor) passes the playground's door,
// names the exercise's kernel, states its launch in a header that reads, and that launch is the one a student's run
// of the file gets by default, the one the comparisons use. Where nvcc is installed, each printed file is compiled
// as the compute host hands it to NVRTC (the exercise's signature check appended); the GPU machine runs each one
// through `kernel run` (tests/gpu/playground-references.test.ts).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { runCli } from '../../../main/cli/main.ts';
import { signatureCheck } from '../../../main/common/compiler-log.ts';
import { EXERCISES, signatureOf } from '../../../main/common/exercises.ts';
import { checkKernelSource } from '../../../main/common/pure/kernel-source-check.ts';
import { readLaunchHeader } from '../../../main/common/pure/launch-header.ts';
import { kernelLaunch } from '../../../main/playground/descriptors.ts';
import { resolveRequest } from '../../../main/playground/playground-service.ts';

const root = join(import.meta.dirname, '..', '..', '..');
const KERNELS = EXERCISES.flatMap((def) => def.kernels.map((k) => ({ def, kernel: k, name: `${def.id} --kernel ${k.id}` })));

async function shown(exercise: string, id: string): Promise<string> {
  let out = '';
  let err = '';
  const code = await runCli(['kernel', 'show', exercise, '--kernel', id], { out: (t) => (out += t), err: (t) => (err += t) }, {});
  if (code !== 0) throw new Error(`kernel show ${exercise} --kernel ${id}: exit ${code}: ${err}`);
  return out;
}

// The options the compute host gives NVRTC (native/cuda/nvrtc.cu): --gpu-architecture=sm_90 -std=c++17 -lineinfo
// --no-source-include, the kernel found by its name (nvrtcAddNameExpression, so a plain function name). nvcc has no
// --no-source-include; the door keeps #include out of the file anyway, and the file is compiled from a folder of
// its own.
const NVCC_OPTIONS = ['-c', '-arch=sm_90', '--std=c++17', '-lineinfo', '-o', '/dev/null'];

function nvccReason(): string | null {
  const found = spawnSync('nvcc', ['--version'], { encoding: 'utf8' });
  return found.error || found.status !== 0 ? 'nvcc is not installed here (as on CI): the GPU machine compiles them with NVRTC' : null;
}
const noNvcc = nvccReason();

describe('the kernels that come with the exercises, as kernel show prints them', () => {
  it.each(KERNELS)('$name: the file itself, through the door, the exercise\'s kernel, a launch header a run applies by default', async ({ def, kernel }) => {
    const text = await shown(def.id, kernel.id);
    expect(text).toBe(readFileSync(join(root, kernel.file), 'utf8'));
    expect(checkKernelSource(text), 'the playground refuses #include and its relatives').toBeNull();
    expect(text.replace(/\s+/g, ' ')).toMatch(new RegExp(`__global__ void (__launch_bounds__\\([\\w, ]+\\) )?${def.entry}\\(`));
    expect(text).not.toMatch(/\btemplate\s*<[^>]*>\s*__global__/);
    const { header, problem } = readLaunchHeader(text);
    expect(problem).toBeNull();
    expect(header?.line, 'the header opens the file').toBe(1);
    for (const size of [def.size.default, def.size.min, 1001]) {
      // What `kernel run EXERCISE FILE.cu` and the app's Run get with no block or grid of their own…
      const run = resolveRequest({ exercise: def.id, source: text, size });
      // …is what the comparisons launch this kernel with.
      expect(run.launch).toEqual({ dynamicSharedBytes: 0, ...kernelLaunch(def, kernel.file, text, size) });
    }
  });

  it('launches SGEMM\'s shared tiles with blocks of 32 × 32 and the engine\'s tiled kernel with 256 threads per 128 × 128 tile (issue 24)', () => {
    const sgemm = EXERCISES.find((e) => e.id === 'sgemm');
    const launch = (id: string) => resolveRequest({ exercise: 'sgemm', source: readFileSync(join(root, sgemm?.kernels.find((k) => k.id === id)?.file ?? ''), 'utf8') }).launch;
    expect(launch('shared-tiles')).toMatchObject({ block: [32, 32, 1], grid: [128, 128, 1] });
    expect(launch('builtin-tiled')).toMatchObject({ block: [256, 1, 1], grid: [32, 32, 1] });
    expect(launch('starter')).toMatchObject({ block: [16, 16, 1], grid: [256, 256, 1] });
  });

  it('starts every starter from the exercise\'s own block, so the form reads the same before and after loading it', () => {
    for (const def of EXERCISES) {
      const starter = def.kernels.find((k) => k.kind === 'starter');
      expect(readLaunchHeader(readFileSync(join(root, starter?.file ?? ''), 'utf8')).header, def.id).toEqual({ line: 1, block: def.defaultBlock, grid: { kind: 'cover' } });
    }
  });

  const nvccTitle = `compiles with nvcc as the compute host hands it to NVRTC${noNvcc ? ` — skipped: ${noNvcc}` : ''}`;
  it.skipIf(noNvcc !== null)(
    nvccTitle,
    async () => {
      const failures: string[] = [];
      for (const { def, kernel, name } of KERNELS) {
        const dir = mkdtempSync(join(tmpdir(), 'gpu-lab-reference-'));
        const file = kernel.file.split('/').pop()?.replace(/\.cuh$/, '.cu') ?? 'kernel.cu';
        writeFileSync(join(dir, file), await shown(def.id, kernel.id));
        // The file byte for byte, then what the host appends: the check that the kernel has the exercise's signature.
        const check = signatureCheck(def.entry, def.params.map((p) => p.ctype), signatureOf(def));
        writeFileSync(join(dir, 'as-compiled.cu'), `#include "${file}"\n${check}`);
        try {
          execFileSync('nvcc', [...NVCC_OPTIONS, 'as-compiled.cu'], { cwd: dir, encoding: 'utf8', stdio: 'pipe' });
        } catch (err) {
          failures.push(`${name}: ${(err as { stderr?: string }).stderr ?? String(err)}`);
        }
      }
      expect(failures).toEqual([]);
    },
    300_000,
  );
});
