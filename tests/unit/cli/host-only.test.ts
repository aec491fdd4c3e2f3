// The compute host is the only process that loads the native addon (ARCHITECTURE.md, "Processes"): `gpu-lab devices` and `gpu-lab
// bench` ask it, and a crash of the host while it answers is reported by the CLI, which goes on to exit on its own.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { describe, expect, it } from 'vitest';

const bin = fileURLToPath(new URL('../../../bin/gpu-lab.js', import.meta.url));
const witness = pathToFileURL(fileURLToPath(new URL('./support/dlopen-witness.mjs', import.meta.url))).href;

// Runs the CLI with every Node process it starts writing down the native modules it loads.
function traced(...args: string[]): { status: number | null; pid: number; stderr: string; loads: { pid: number; path: string }[] } {
  const log = join(mkdtempSync(join(tmpdir(), 'gpu-lab-dlopen-')), 'loads.txt');
  const env = { ...process.env, LANG: 'C.UTF-8', LANGUAGE: '', LC_ALL: '', NODE_OPTIONS: `--import=${witness}`, GPU_LAB_DLOPEN_LOG: log };
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', env, maxBuffer: 16 << 20 });
  let text = '';
  try {
    text = readFileSync(log, 'utf8');
  } catch {
    // Nothing loaded a native module.
  }
  const loads = text
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => ({ pid: Number(line.split(' ')[0]), path: line.slice(line.indexOf(' ') + 1) }));
  return { status: r.status, pid: r.pid ?? -1, stderr: r.stderr, loads };
}

const isAddon = (path: string): boolean => path.endsWith('gpu_lab.node');

describe('the CLI never loads the addon itself', () => {
  it.each([
    [['devices', '--json']],
    [['bench', '--device', 'cpu', '--scale', '0.001', '--json']],
  ])('gpu-lab %j: the addon is loaded by the compute host, not by the CLI', (args) => {
    const r = traced(...args);
    expect(r.status, r.stderr).toBe(0);
    const addonLoads = r.loads.filter((l) => isAddon(l.path));
    // The witness works: the host it forked loaded the addon.
    expect(addonLoads.length).toBeGreaterThan(0);
    expect(addonLoads.map((l) => l.pid)).not.toContain(r.pid);
  }, 120_000);

  it('a compute host that crashes while reading the devices is reported, and the CLI exits 1 on its own', () => {
    // The hooks reach the host through the environment it inherits; the host segfaults as the request arrives.
    const env = { ...process.env, LANG: 'C.UTF-8', LANGUAGE: '', LC_ALL: '', GPU_LAB_TEST_HOOKS: '1', GPU_LAB_TEST_CRASH_ON: 'inspect' };
    const crashed = spawnSync(process.execPath, [bin, 'devices'], { encoding: 'utf8', env, timeout: 60_000 });
    expect(crashed.status).toBe(1);
    expect(crashed.stderr).toMatch(/gpu-lab devices: .*COMPUTE_HOST_CRASHED.*SIGSEGV/);
  }, 120_000);
});
