// Where the compute host looks for cuBLAS and NVRTC beyond the loader's path, over a machine made in a temporary
// folder: a CUDA_PATH, CUDA toolkits under a fake /usr/local, conda with environments, a virtual environment and a
// user site with NVIDIA's wheels in their CUDA 13 and CUDA 12 layouts, and a python3 on PATH that names its
// site-packages; then a real virtual environment's python3.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { cudaLibraryDirs } from '../../../main/host/cuda-library-dirs.ts';
import type { SearchPlaces } from '../../../main/host/cuda-library-dirs.ts';

const venvPossible = spawnSync('python3', ['-c', 'import venv']).status === 0;

function dirs(root: string, ...paths: string[]): void {
  for (const p of paths) mkdirSync(join(root, p), { recursive: true });
}

// A python3 that answers the host's question as a real one would: its site-packages as a JSON list. printf is the
// shell's own: PATH holds nothing else.
function pythonPrinting(bin: string, output: string): void {
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, 'python3'), `#!/bin/sh\nprintf '%s\\n' '${output}'\n`);
  chmodSync(join(bin, 'python3'), 0o755);
}

function machine(): { root: string; places: SearchPlaces } {
  const root = mkdtempSync(join(tmpdir(), 'gpu-lab-cudalibs-'));
  dirs(
    root,
    'cuda-path/lib64',
    // /usr/local/cuda links to the toolkit the system chose; older ones sit beside it.
    'usr-local/cuda-13.0/lib64',
    'usr-local/cuda-12.4/lib64',
    'usr-local/cuda-12.10/lib64',
    'home/miniconda3/lib',
    'home/miniconda3/envs/torch/lib/python3.12/site-packages/nvidia/cu13/lib',
    'home/miniconda3/envs/old/lib/python3.10/site-packages/nvidia/cublas/lib',
    'home/miniconda3/envs/old/lib/python3.10/site-packages/nvidia/cuda_nvrtc/lib',
    'venv/lib/python3.12/site-packages/nvidia/cu13/lib',
    'home/.local/lib/python3.12/site-packages/nvidia/cublas/lib',
  );
  symlinkSync(join(root, 'usr-local/cuda-13.0'), join(root, 'usr-local/cuda'));
  pythonPrinting(join(root, 'bin'), JSON.stringify([join(root, 'venv/lib/python3.12/site-packages'), join(root, 'home/.local/lib/python3.12/site-packages')]));
  const env = { PATH: join(root, 'bin'), CUDA_PATH: join(root, 'cuda-path'), CUDA_HOME: 'relative/cuda', CONDA_PREFIX: join(root, 'home/miniconda3/envs/torch') };
  return { root, places: { env, home: join(root, 'home'), toolkitRoot: join(root, 'usr-local'), systemConda: join(root, 'opt-conda') } };
}

describe('the folders searched for cuBLAS and NVRTC', () => {
  it('are what the user set, then the environment in use, then what is installed, each once and only where it exists', async () => {
    const { root, places } = machine();
    const found = (await cudaLibraryDirs(places)).map((d) => d.slice(root.length + 1));
    expect(found).toEqual([
      // CUDA_PATH; CUDA_HOME is relative, so it says nothing about where to look.
      'cuda-path/lib64',
      // The active conda environment, then NVIDIA's wheels in the site-packages python3 names: a virtual
      // environment's CUDA 13 wheels (one nvidia/cu13/lib) and a user install of CUDA 12 ones (nvidia/cublas/lib).
      'home/miniconda3/envs/torch/lib',
      'venv/lib/python3.12/site-packages/nvidia/cu13/lib',
      'home/.local/lib/python3.12/site-packages/nvidia/cublas/lib',
      // The toolkits, newest first: /usr/local/cuda under its own name, and cuda-13.0, the same folder, not again.
      'usr-local/cuda/lib64',
      'usr-local/cuda-12.10/lib64',
      'usr-local/cuda-12.4/lib64',
      // conda's base and its other environments, then the wheels in every conda environment's Python.
      'home/miniconda3/lib',
      'home/miniconda3/envs/old/lib',
      'home/miniconda3/envs/torch/lib/python3.12/site-packages/nvidia/cu13/lib',
      'home/miniconda3/envs/old/lib/python3.10/site-packages/nvidia/cublas/lib',
      'home/miniconda3/envs/old/lib/python3.10/site-packages/nvidia/cuda_nvrtc/lib',
    ]);
  });

  it('without a python3 on PATH, or with one that answers nonsense, still finds the rest', async () => {
    const { root, places } = machine();
    const withoutPython = await cudaLibraryDirs({ ...places, env: { ...places.env, PATH: join(root, 'nowhere') } });
    pythonPrinting(join(root, 'bin'), 'Python 3.12.3');
    const withNonsense = await cudaLibraryDirs(places);
    for (const found of [withoutPython, withNonsense]) {
      expect(found).toContain(join(root, 'cuda-path/lib64'));
      expect(found).toContain(join(root, 'home/miniconda3/envs/old/lib/python3.10/site-packages/nvidia/cuda_nvrtc/lib'));
      expect(found).not.toContain(join(root, 'venv/lib/python3.12/site-packages/nvidia/cu13/lib'));
    }
  });

  // A real interpreter, not a stub: a virtual environment's python3 names its own site-packages only once its site
  // module has run (run with -S, Python 3.11 answered the base installation's).
  it.skipIf(!venvPossible)('include the wheels of a real virtual environment whose python3 is first on PATH', async () => {
    const root = mkdtempSync(join(tmpdir(), 'gpu-lab-cudalibs-'));
    const venv = join(root, 'venv');
    expect(spawnSync('python3', ['-m', 'venv', '--without-pip', venv]).status).toBe(0);
    const sitePackages = spawnSync(join(venv, 'bin/python3'), ['-c', 'import sysconfig; print(sysconfig.get_paths()["purelib"])'], { encoding: 'utf8' }).stdout.trim();
    mkdirSync(join(sitePackages, 'nvidia/cu13/lib'), { recursive: true });
    const found = await cudaLibraryDirs({ env: { PATH: `${join(venv, 'bin')}:${process.env.PATH ?? ''}` }, home: join(root, 'home'), toolkitRoot: join(root, 'usr-local'), systemConda: join(root, 'opt-conda') });
    expect(found[0]).toBe(join(sitePackages, 'nvidia/cu13/lib'));
  });

  it('on a machine with none of these, is empty', async () => {
    const root = mkdtempSync(join(tmpdir(), 'gpu-lab-cudalibs-'));
    expect(await cudaLibraryDirs({ env: { PATH: join(root, 'bin') }, home: join(root, 'home'), toolkitRoot: join(root, 'usr-local'), systemConda: join(root, 'opt-conda') })).toEqual([]);
  });
});
