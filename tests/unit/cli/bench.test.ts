import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

const bin = fileURLToPath(new URL('../../../bin/gpu-lab.js', import.meta.url));

// English whatever the machine's locale (tests/unit/cli/lang.test.ts covers the others).
const env = { ...process.env, LANGUAGE: '', LC_ALL: '', LC_MESSAGES: '', LANG: 'C.UTF-8' };

function gpuLab(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', maxBuffer: 16 << 20, env });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

interface Row {
  id: string;
  device: string;
  variant: string;
  size: number;
  medianMs: number;
  minMs: number;
  maxMs: number;
  samples: number;
  gflops?: number;
  gbps?: number;
  verified: boolean;
  implementation: string;
}

describe('gpu-lab bench --device cpu', () => {
  it('--json prints one verified object per seed workload, with rates where they apply', () => {
    const r = gpuLab('bench', '--device', 'cpu', '--json', '--scale', '0.01');
    expect(r.status, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout) as Row[];
    const ids = new Set(rows.map((row) => row.id));
    expect(ids).toEqual(new Set(['gemm-fp32', 'gemm-fp64', 'vector-function', 'add', 'mul', 'exp', 'empty']));
    expect(rows.filter((row) => row.id === 'gemm-fp32').map((row) => row.size)).toEqual([10, 20, 40]);
    expect(rows.filter((row) => row.id === 'vector-function').map((row) => row.variant)).toEqual(['single', 'threads']);
    // add, mul and exp at two sizes, single and threads each.
    expect(rows.filter((row) => ['add', 'mul', 'exp'].includes(row.id))).toHaveLength(12);
    for (const row of rows) {
      expect(row.device).toBe('cpu');
      expect(row.verified, `${row.id} ${row.variant} ${row.size}`).toBe(true);
      expect(row.minMs).toBeLessThanOrEqual(row.medianMs);
      expect(row.medianMs).toBeLessThanOrEqual(row.maxMs);
      expect(row.samples).toBeGreaterThan(0);
      if (row.id.startsWith('gemm')) expect(row.gflops ?? 0).toBeGreaterThan(0);
      if (['add', 'mul', 'exp', 'vector-function'].includes(row.id)) expect(row.gbps ?? 0).toBeGreaterThan(0);
    }
    const gemm = rows.find((row) => row.id === 'gemm-fp32');
    expect(gemm?.implementation).toMatch(/OpenBLAS|CBLAS|built-in blocked GEMM/);
  }, 120_000);

  it('prints a table with a header by default', () => {
    const r = gpuLab('bench', '--scale', '0.01');
    expect(r.status, r.stderr).toBe(0);
    const [header] = r.stdout.split('\n');
    expect(header).toMatch(/^id\s+variant\s+size\s+median ms\s+min ms\s+max ms/);
    expect(r.stdout).toMatch(/^vector-function\s+threads\s+50000\s/m);
  }, 120_000);

  it.each([
    [['bench', '--device', 'tpu'], /--device: expected "cpu" or "cuda:N" but received "tpu"/],
    [['bench', '--threads', '0'], /--threads: expected an integer from 1 to 256 but received "0"/],
    [['bench', '--scale', '2'], /--scale: expected a number greater than 0 and at most 1 but received "2"/],
    [['bench', '--frobnicate'], /^gpu-lab bench: unknown option --frobnicate$/m],
    // A device this machine does not have: the same rule and words as `gpu-lab run`, the devices it has named once.
    [['bench', '--device', 'cuda:99'], /^gpu-lab bench: INVALID_PARAMS: Parameter "device" = "cuda:99" is not allowed: this machine's devices are cpu(?!.*no CUDA device: no CUDA device)/m],
    [['frobnicate'], /unknown command "frobnicate"/],
  ])('bad usage %j exits with 2 and says why', (args, message) => {
    const r = gpuLab(...args);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(message);
  });
});
