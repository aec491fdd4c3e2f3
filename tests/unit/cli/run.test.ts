// gpu-lab run from outside: its exit code and what it prints when the device is not this machine's, when every
// point is right, and when results are wrong.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

const bin = fileURLToPath(new URL('../../../bin/gpu-lab.js', import.meta.url));
const wrongResults = fileURLToPath(new URL('fixtures/wrong-results.ts', import.meta.url));

// English whatever the machine's locale (tests/unit/cli/lang.test.ts covers the others).
const env = { ...process.env, LANGUAGE: '', LC_ALL: '', LC_MESSAGES: '', LANG: 'C.UTF-8' };

function gpuLab(nodeArgs: string[], ...args: string[]): { status: number | null; stdout: string; stderr: string; runs: string[] } {
  const dataDir = mkdtempSync(join(tmpdir(), 'gpu-lab-cli-run-'));
  const r = spawnSync(process.execPath, [...nodeArgs, bin, ...args, '--data-dir', dataDir, '--quiet'], { encoding: 'utf8', maxBuffer: 16 << 20, env });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, runs: readdirSync(join(dataDir, 'runs')) };
}

const small = ['--param', 'elements=1000', '--param', 'repeats=2'];

describe('gpu-lab run', () => {
  it('refuses a device this machine does not have with INVALID_PARAMS and exit 2, naming it and the devices it has', () => {
    const r = gpuLab([], 'run', 'vector-function', '--device', 'cuda:37', ...small);
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/^gpu-lab run: INVALID_PARAMS: Parameter "device" = "cuda:37" is not allowed: this machine's devices are cpu\b/m);
    expect(r.runs).toEqual([]);
  }, 60_000);

  it('exits 0 when every point is measured and right', () => {
    const r = gpuLab([], 'run', 'vector-function', '--device', 'cpu', ...small);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^completed — stored as /m);
  }, 60_000);

  it('exits 1 and prints VERIFICATION_FAILED when results are wrong, though the run completed', () => {
    const r = gpuLab(['--import', wrongResults], 'run', 'vector-function', '--device', 'cpu', ...small);
    expect(r.status, r.stderr).toBe(1);
    expect(r.stdout).toMatch(/^completed — stored as /m);
    expect(r.stderr).toMatch(/^gpu-lab run: VERIFICATION_FAILED: \d+ of \d+ points gave wrong results: CPU, one thread; CPU, all threads\b/m);
  }, 60_000);
});
