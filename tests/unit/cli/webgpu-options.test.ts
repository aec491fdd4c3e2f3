// `--device webgpu:N` where a command is not `gpu-lab run`: `bench` has no WebGPU workloads and refuses it before
// anything starts, naming the option, the value, what it takes and where a WebGPU adapter runs instead (never a crash,
// never the CPU or a CUDA device measured in its place); `batch` hands it to each task's `gpu-lab run`, which checks
// that its node has it (a real Slurm running it: slurm-batch.test.ts).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

const bin = fileURLToPath(new URL('../../../bin/gpu-lab.js', import.meta.url));
// Node alone on PATH: no sbatch answers, whatever this machine has installed.
const env = { ...process.env, PATH: dirname(process.execPath), LANGUAGE: '', LC_ALL: '', LC_MESSAGES: '', LANG: 'C.UTF-8' };

function gpuLab(...args: string[]): { status: number | null; signal: string | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', env: { ...env, GPU_LAB_LOCK_DIR: join(folder(), 'locks') } });
  return { status: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
}

function folder(): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'gpu-lab-webgpu-options-')), 'shared');
  mkdirSync(dir);
  return dir;
}

describe('gpu-lab bench --device webgpu:0', () => {
  it.each([
    ['en', 'gpu-lab bench: --device: expected "cpu" or "cuda:N" but received "webgpu:0": the bench has no WebGPU workloads; a WebGPU adapter runs the vector function and the elementwise break-even (gpu-lab run vector-function --device webgpu:0)'],
    ['es', 'gpu-lab bench: --device: se esperaba «cpu» o «cuda:N», pero se recibió «webgpu:0»: el banco de pruebas no tiene cargas para WebGPU; un adaptador WebGPU ejecuta la función vectorial y el punto de equilibrio elemento a elemento (gpu-lab run vector-function --device webgpu:0)'],
  ])('is refused with exit 2 before anything is measured, in %s, naming the option, the value and what it takes', (lang, said) => {
    const r = gpuLab('bench', '--device', 'webgpu:0', '--scale', '0.01', '--json', '--lang', lang);
    expect(r.signal).toBeNull();
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toBe(`${said}\n`);
    expect(r.stdout).toBe('');
  });
});

describe('gpu-lab batch --device webgpu:N', () => {
  it('hands webgpu:0 to each task’s gpu-lab run, and writes nothing with --dry-run', () => {
    const dir = folder();
    const r = gpuLab('batch', '--slurm', '--labs', 'vector-function', '--device', 'webgpu:0', '--data-dir', dir, '--dry-run');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain(`'${bin}' run 'vector-function' --data-dir '${dir}' --quiet --device 'webgpu:0' || status=$?`);
    expect(readdirSync(dir)).toEqual([]);
  });

  it.each(['webgpu:x', 'webgpu', 'gpu0', 'cuda:0;id'])('refuses --device %s with exit 2, naming every kind of device it takes', (device) => {
    const dir = folder();
    const r = gpuLab('batch', '--slurm', '--labs', 'vector-function', '--device', device, '--data-dir', dir);
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toBe(`gpu-lab batch: --device: expected "cpu", "cuda:N" or "webgpu:N" but received "${device}"\n`);
    expect(readdirSync(dir)).toEqual([]);
  });
});
