// Numba's CUDA target on a NumPy without numpy.row_stack (NumPy 2.5 removed the alias; numba-cuda 0.30 still reads
// it at import): the Python worker puts it back before it imports Numba, and says so. This machine has no Numba, so
// a stand-in package plays it, failing at `import numba.cuda` exactly as numba-cuda does where the alias is missing;
// the interpreter is python3 with the alias taken out of its NumPy, as NumPy 2.5 has it. Checked through the probe
// (Numba's CUDA found usable), a real CPU run of the vector-function lab (Numba's loop measured, its implementation
// naming the restored alias) and the PDF's method, in English and in Spanish; with NumPy's own alias, nothing is said.
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { createLabHost } from '../../../main/app/lab-host.ts';
import { ROW_STACK_RESTORED } from '../../../main/common/peer-protocol.ts';
import type { RunRecord } from '../../../main/common/run-record.ts';
import { probePeers } from '../../../main/host/python-worker.ts';
import { writeRunReport } from '../../../main/reports/report-writer.ts';
import { pdfText, savePdf } from '../reports/pdf-tools.ts';

const dir = mkdtempSync(join(tmpdir(), 'gpu-lab-numba-alias-'));

// A stand-in Numba: njit and prange as plain Python, vectorize as NumPy's (for the GPU it first writes a kernel's
// source after the function's name, as numba-cuda does, so a lambda fails as it does there), and a `numba.cuda` whose
// import reads numpy.row_stack as numba-cuda 0.30's does.
const fake = join(dir, 'site');
mkdirSync(join(fake, 'numba', 'cuda'), { recursive: true });
writeFileSync(
  join(fake, 'numba', '__init__.py'),
  [
    '__version__ = "0.68.0"',
    'prange = range',
    'def njit(*args, **kwargs):',
    '    if len(args) == 1 and callable(args[0]) and not kwargs:',
    '        return args[0]',
    '    return lambda f: f',
    'def vectorize(signatures, target=None):',
    '    import numpy',
    '    def build(f):',
    '        if target == "cuda":',
    '            exec(compile("def __vectorized_%s(x):\\n    return x\\n" % f.__name__, "<string>", "exec"), {})',
    '        return numpy.vectorize(f)',
    '    return build',
    '',
  ].join('\n'),
);
writeFileSync(
  join(fake, 'numba', 'cuda', '__init__.py'),
  ['import numpy', '_stack = numpy.row_stack', 'def is_available():', '    return True', 'class _Gpu:', '    name = b"Stand-in GPU"', 'gpus = [_Gpu()]', ''].join('\n'),
);

// python3 running the worker with the stand-in Numba first on its path, and NumPy with or without its alias.
function python(name: string, withoutAlias: boolean): string {
  const path = join(dir, name);
  const prelude = [`import sys`, `sys.path.insert(0, ${JSON.stringify(fake)})`, ...(withoutAlias ? ['import numpy', 'del numpy.row_stack'] : [])];
  writeFileSync(`${path}.py`, [...prelude, 'import runpy', "runpy.run_module('gpu_lab_peers', run_name='__main__')", ''].join('\n'));
  writeFileSync(path, `#!/bin/sh\nexec python3 '${path}.py'\n`);
  chmodSync(path, 0o755);
  return path;
}

async function vectorFunctionRun(interpreter: string): Promise<RunRecord> {
  const saved = process.env.GPU_LAB_PYTHON;
  process.env.GPU_LAB_PYTHON = interpreter;
  const host = createLabHost({ dataDir: mkdtempSync(join(dir, 'data-')), warn: () => undefined });
  try {
    const { runId } = await host.runs.startRun({ lab: 'vector-function', device: 'cpu', params: { elements: 20_000, repeats: 3 }, peers: ['numba'] });
    await host.runs.whenIdle();
    return await host.runs.getRun(runId);
  } finally {
    await host.dispose();
    if (saved === undefined) delete process.env.GPU_LAB_PYTHON;
    else process.env.GPU_LAB_PYTHON = saved;
  }
}

async function methodText(record: RunRecord, locale: 'en' | 'es'): Promise<string> {
  const pdf = await writeRunReport(record, { author: 'A', course: 'C', date: new Date('2026-11-29T10:00:00Z'), writerVersion: '0.1.0', locale });
  return pdfText(savePdf(pdf.bytes)).replace(/\s+/g, ' ');
}

describe('Numba on a NumPy without numpy.row_stack', () => {
  const withoutAlias = python('python-numpy-2.5', true);
  const withAlias = python('python-numpy-alias', false);

  it('the probe finds Numba’s CUDA target usable once the worker has put the alias back', async () => {
    const report = await probePeers(['numba'], { ...process.env, GPU_LAB_PYTHON: withoutAlias });
    expect(report.available).toBe(true);
    if (!report.available) return;
    expect(report.probe.libraries.numba).toMatchObject({ found: true, version: '0.68.0', cudaAvailable: true, devices: ['Stand-in GPU'] });
  });

  it('a run measures Numba’s loop, its implementation and the PDF’s method saying the alias was restored, in both languages', async () => {
    const run = await vectorFunctionRun(withoutAlias);
    const njit = run.points.find((p) => p.series === 'numba-njit');
    expect(njit?.status, njit?.reason ?? njit?.error?.message ?? '').toBe('ok');
    expect(njit?.verification?.passed).toBe(true);
    expect(njit?.implementation).toContain(ROW_STACK_RESTORED);
    // NumPy's own series is not Numba's: nothing restored is said of it.
    expect(run.points.filter((p) => p.implementation?.includes(ROW_STACK_RESTORED)).every((p) => p.series.startsWith('numba-'))).toBe(true);
    expect(await methodText(run, 'en')).toMatch(/Numba’s series \(Numba njit loop, one core, Numba njit\(parallel=True\), all cores\) ran with numpy\.row_stack restored as numpy\.vstack for Numba/);
    expect(await methodText(run, 'es')).toMatch(/Las series de Numba \(Bucle Numba njit, un núcleo, Numba njit\(parallel=True\), todos los núcleos\) se midieron con numpy\.row_stack restaurado como numpy\.vstack para Numba/);
  });

  it('where NumPy still has the alias, nothing is restored and nothing is said', async () => {
    const run = await vectorFunctionRun(withAlias);
    const njit = run.points.find((p) => p.series === 'numba-njit');
    expect(njit?.status).toBe('ok');
    expect(njit?.implementation).not.toContain('row_stack');
    expect(await methodText(run, 'en')).not.toContain('row_stack');
  });
});
