// The course's own NumPy beside the engine in a real CPU run of the vector-function lab: its series measured by the
// Python worker the compute host starts, on the engine's inputs, verified against the engine's float64 reference;
// left out when the run asks for no peers; failed, with the run going on, when it computes something else; waived
// with the reason when the interpreter has no NumPy.
import { cpSync, mkdtempSync, readFileSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { createLabHost } from '../../../main/app/lab-host.ts';
import type { PeerLibrary } from '../../../main/common/peer-protocol.ts';
import { peersDir } from '../../../main/host/python-worker.ts';

const dir = mkdtempSync(join(tmpdir(), 'gpu-lab-peer-series-'));
const PARAMS = { elements: 20_000, repeats: 3 };

async function vectorFunctionRun(env: Record<string, string>, peers?: PeerLibrary[], params: Record<string, number> = PARAMS) {
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  const host = createLabHost({ dataDir: mkdtempSync(join(dir, 'data-')), warn: () => undefined });
  try {
    const { runId } = await host.runs.startRun({ lab: 'vector-function', device: 'cpu', params, ...(peers ? { peers } : {}) });
    await host.runs.whenIdle();
    return await host.runs.getRun(runId);
  } finally {
    await host.dispose();
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

describe('NumPy beside the engine in the vector-function lab', () => {
  it('times the notebook\'s NumPy on the engine\'s inputs and verifies it like the engine\'s own loops', async () => {
    const run = await vectorFunctionRun({ GPU_LAB_PYTHON: 'python3' });
    expect(run.peers).toEqual(['numpy', 'cupy', 'numba']);
    // CuPy's series are the GPU's: waived with the GPU's reason on a machine without one, as Numba's are without it.
    for (const p of run.points.filter((q) => /^(cupy|numba)-/.test(q.series))) {
      if (p.status !== 'ok') expect(p.status, p.series).toBe('waived');
      if (p.status === 'waived') expect(p.reason, p.series).toMatch(/CUDA|numba|cupy/);
    }
    const numpy = run.points.find((p) => p.series === 'numpy-notebook');
    expect(numpy, JSON.stringify(run.points.map((p) => p.series))).toBeDefined();
    expect(numpy?.status, numpy?.reason ?? '').toBe('ok');
    expect(numpy?.verification).toMatchObject({ passed: true, checked: PARAMS.elements });
    expect(numpy?.implementation).toMatch(/^numpy \d+\.\d+.* \(Python 3\.\d+/);
    expect(numpy?.stats?.median ?? 0).toBeGreaterThan(0);
    expect(run.points.find((p) => p.series === 'cpu-single')?.status).toBe('ok');
  });

  it('leaves the series out when the run asks for no peers', async () => {
    const run = await vectorFunctionRun({}, []);
    expect(run.points.some((p) => p.series === 'numpy-notebook')).toBe(false);
    expect(run.peers).toEqual([]);
  });

  it('fails the series, and only it, when the code computes something else', async () => {
    // GPU Lab's package with the notebook's line changed: c added twice.
    const copy = join(dir, 'wrong');
    cpSync(peersDir() ?? '', copy, { recursive: true });
    const file = join(copy, 'gpu_lab_peers', 'labs', 'vector_function.py');
    writeFileSync(file, readFileSync(file, 'utf8').replace('return a * x**2 + b * y + c', 'return a * x**2 + b * y + c + c'));
    const run = await vectorFunctionRun({ GPU_LAB_PYTHON: 'python3', GPU_LAB_PEERS_DIR: copy });
    const numpy = run.points.find((p) => p.series === 'numpy-notebook');
    expect(numpy?.status).toBe('failed');
    expect(numpy?.error?.code).toBe('VERIFICATION_FAILED');
    expect(run.points.find((p) => p.series === 'cpu-threads')?.status).toBe('ok');
  });

  it('checks the elements it samples of an output past a million, and fails the series when one of them is wrong', async () => {
    const big = { elements: 1_200_000, repeats: 3 };
    const right = (await vectorFunctionRun({ GPU_LAB_PYTHON: 'python3' }, ['numpy'], big)).points.find((p) => p.series === 'numpy-notebook');
    expect(right?.status, right?.reason ?? right?.error?.message ?? '').toBe('ok');
    expect(right?.verification).toMatchObject({ passed: true, method: 'sampled', checked: 4096, total: big.elements });
    // The notebook's line wrong only for elements from the millionth on: the sampled check finds them.
    const copy = join(dir, 'wrong-late');
    cpSync(peersDir() ?? '', copy, { recursive: true });
    const file = join(copy, 'gpu_lab_peers', 'labs', 'vector_function.py');
    const source = readFileSync(file, 'utf8');
    writeFileSync(file, source.replace('return a * x**2 + b * y + c', 'z = a * x**2 + b * y + c\n        z[1_000_000:] += 1\n        return z'));
    const wrong = (await vectorFunctionRun({ GPU_LAB_PYTHON: 'python3', GPU_LAB_PEERS_DIR: copy }, ['numpy'], big)).points.find((p) => p.series === 'numpy-notebook');
    expect(wrong?.status).toBe('failed');
    expect(wrong?.error?.code).toBe('VERIFICATION_FAILED');
  });

  it('waives the series, saying why, where the interpreter has no NumPy', async () => {
    const stub = join(dir, 'python-without-numpy');
    writeFileSync(`${stub}.py`, "import sys\nsys.modules['numpy'] = None\nimport runpy\nrunpy.run_module('gpu_lab_peers', run_name='__main__')\n");
    writeFileSync(stub, `#!/bin/sh\nexec python3 '${stub}.py'\n`);
    chmodSync(stub, 0o755);
    const run = await vectorFunctionRun({ GPU_LAB_PYTHON: stub });
    const numpy = run.points.find((p) => p.series === 'numpy-notebook');
    expect(numpy?.status).toBe('waived');
    expect(numpy?.reason).toMatch(/numpy .*not installed/);
    expect(run.status).toBe('completed');
  });
});
