// The command line in Spanish and English: --lang, the system's locale when it is not given, a refused language,
// Spanish tables and findings with decimal commas, a PDF in the chosen language, and the JSON and CSV the same bytes
// whatever the language.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { runCli } from '../../../main/cli/main.ts';
import type { RunRecord } from '../../../main/common/run-record.ts';
import { fixture, fixturesDir, pdfText, spaced, tempDir } from '../reports/pdf-tools.ts';
import { findingText } from '../../../main/labs/lab-text.ts';

// No language in the environment: English unless --lang says otherwise.
const NO_LOCALE = {};

async function gpuLab(argv: string[], env: Record<string, string | undefined> = NO_LOCALE): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(argv, { out: (t) => (out += t), err: (t) => (err += t) }, env);
  return { code, out, err };
}

function seeded(): string {
  const dataDir = tempDir('gpu-lab-cli-lang-');
  mkdirSync(join(dataDir, 'runs'));
  for (const name of readdirSync(fixturesDir)) {
    const { id } = JSON.parse(readFileSync(join(fixturesDir, name), 'utf8')) as { id: string };
    copyFileSync(join(fixturesDir, name), join(dataDir, 'runs', `${id}.json`));
  }
  return dataDir;
}

describe('gpu-lab run --lang es', () => {
  // Without the Python peers: the engine's own 9 points, whatever Python this machine has.
  const small = ['--device', 'cpu', '--param', 'sizes=16,32,64', '--param', 'repeats=2', '--quiet', '--peers', 'none'];

  it('prints the lab, the table and the findings in Spanish, numbers with a decimal comma, and stores an English record', async () => {
    const dataDir = tempDir();
    const json = join(tempDir(), 'run.json');
    const r = await gpuLab(['run', 'matmul-breakeven', ...small, '--lang', 'es', '--json', json, '--data-dir', dataDir]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/^Punto de equilibrio del producto de matrices: ¿a partir de qué N gana la GPU\?$/m);
    expect(r.out).toMatch(/^ejecución \S+ en cpu, 9 puntos$/m);
    expect(r.out).toMatch(/^punto\s+estado\s+mediana\s+IC 95 %\s+mín\. … máx\.\s+RIC\s+muestras\s+rendimiento\s+% del pico\s+error rel\.$/m);
    // Every column lines up under its heading, the Spanish ones included.
    const lines = r.out.split('\n');
    const header = lines.find((l) => l.startsWith('punto')) ?? '';
    const rows = lines.filter((l) => l.startsWith('BLAS en la CPU, N = '));
    expect(rows).toHaveLength(3);
    for (const row of rows) {
      expect(row.indexOf(' ', header.indexOf('mediana') - 1), row).toBe(header.indexOf('mediana') - 1);
      expect(row.slice(header.indexOf('rendimiento')), row).toMatch(/^\d+(,\d+)? GFLOP\/s/);
      // Times, spreads and errors with a decimal comma, none with a point.
      expect(row, row).not.toMatch(/\d\.\d/);
    }
    expect(rows.join('\n')).toMatch(/\d,\d/);
    expect(r.out).toMatch(/^GPU con transferencias, N = 16\s+OMITIDO$/m);
    expect(r.out).toMatch(/^OMITIDOS \(6 puntos\): (no hay ningún dispositivo CUDA|GPU Lab se compiló sin CUDA)/m);
    expect(r.out).not.toMatch(/no CUDA device|not found|first call/);
    expect(r.out).toMatch(/^Hallazgos\n {2}• Como máximo, la BLAS de la CPU de GPU Lab.* alcanza \d+(,\d+)? GFLOP\/s \(N = \d+, \d+(,\d+)? (ns|µs|ms)\)\.$/m);
    // Once each, after the table, though the analysis runs again as points arrive.
    expect(r.out.match(/Como máximo, la BLAS de la CPU de GPU Lab/g)).toHaveLength(1);
    expect(r.out).toMatch(/^completada — guardada como \S+ en /m);
    // The record is data: its words are the lab's English, its numbers written the English way.
    const record = JSON.parse(readFileSync(json, 'utf8')) as RunRecord;
    expect(record.labTitle).toMatch(/^Matrix product break-even/);
    expect(record.points[0]?.label).toBe('CPU BLAS, N = 16');
    expect(record.findings[0] && findingText(record.findings[0], 'en')).toMatch(/^GPU Lab’s CPU BLAS.* peaks at \d+(\.\d+)? GFLOP\/s \(N = \d+, \d+(\.\d+)? (ns|µs|ms)\)\.$/);
  }, 120_000);

  it('speaks English with --lang en, whatever the system says', async () => {
    const r = await gpuLab(['run', 'matmul-breakeven', ...small, '--lang', 'en', '--data-dir', tempDir()], { LANG: 'es_ES.UTF-8' });
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/^point\s+status\s+median\s+95 % CI\s+min … max\s+IQR\s+samples\s+rate\s+% of peak\s+rel\. error$/m);
    expect(r.out).toMatch(/^ {2}• GPU Lab’s CPU BLAS.* peaks at \d+(\.\d+)? GFLOP\/s/m);
  }, 120_000);
});

describe('the language of the system', () => {
  it.each([
    [{ LANG: 'es_ES.UTF-8' }, 'es'],
    [{ LANG: 'es_AR.UTF-8' }, 'es'],
    [{ LC_ALL: 'es_MX.UTF-8', LANG: 'en_US.UTF-8' }, 'es'],
    [{ LANGUAGE: 'en', LANG: 'es_ES.UTF-8' }, 'en'],
    [{ LANG: 'fr_FR.UTF-8' }, 'en'],
    [{ LANG: 'C' }, 'en'],
  ])('%j gives %s', async (env, language) => {
    const r = await gpuLab(['--help'], env);
    expect(r.code).toBe(0);
    expect(r.out.split('\n')[0]).toBe(language === 'es' ? 'Uso: gpu-lab <comando> [opciones]' : 'Usage: gpu-lab <command> [options]');
  });

  it('is read by the installed command: LANG=es_ES.UTF-8 without --lang speaks Spanish', () => {
    const bin = fileURLToPath(new URL('../../../bin/gpu-lab.js', import.meta.url));
    const env = { ...process.env, LANGUAGE: '', LC_ALL: '', LC_MESSAGES: '', LANG: 'es_ES.UTF-8' };
    const r = spawnSync(process.execPath, [bin, 'run', '--help'], { encoding: 'utf8', env });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Uso: gpu-lab run <laboratorio> /);
    expect(r.stdout).toContain('  --quiet    sin líneas de progreso');
  });
});

describe('a language gpu-lab does not speak', () => {
  it.each([
    [['--lang', 'xx', 'labs'], '--lang: expected en or es but received "xx"'],
    [['labs', '--lang=fr'], '--lang: expected en or es but received "fr"'],
    [['labs', '--lang'], '--lang needs a value'],
    [['labs', '--lang', 'es', '--lang', 'en'], '--lang given 2 times'],
  ])('%j is bad usage (exit 2), saying what was expected', async (argv, message) => {
    const r = await gpuLab(argv);
    expect(r.code).toBe(2);
    expect(r.err).toBe(`gpu-lab: ${message}\n`);
    expect(r.out).toBe('');
  });

  it('is refused in the system language', async () => {
    const r = await gpuLab(['labs', '--lang', 'xx'], { LANG: 'es_ES.UTF-8' });
    expect(r.code).toBe(2);
    expect(r.err).toBe('gpu-lab: --lang: se esperaba en o es, pero se recibió «xx»\n');
  });
});

describe('errors in Spanish', () => {
  it('says a usage error in Spanish (exit 2)', async () => {
    const r = await gpuLab(['run', 'matmul-breakeven', '--device', 'tpu', '--lang', 'es']);
    expect(r.code).toBe(2);
    expect(r.err).toBe('gpu-lab run: --device: se esperaba «cpu», «cuda:N» o «webgpu:N», pero se recibió «tpu»\n');
  });

  it('words a parameter the lab refuses, and a device this machine lacks, in Spanish (exit 2); English keeps the engine’s words', async () => {
    const dataDir = tempDir();
    const param = await gpuLab(['run', 'elementwise-breakeven', '--device', 'cpu', '--param', 'maxExponent=12', '--lang', 'es', '--data-dir', dataDir]);
    expect(param.code).toBe(2);
    expect(param.err).toBe('gpu-lab run: error INVALID_PARAMS: «Tamaño más grande» = 12 no es válido: se espera un entero de 1 a 9 log10 de elementos, y al menos «Tamaño más pequeño».\n');
    const device = await gpuLab(['run', 'matmul', '--device', 'cuda:3', '--lang', 'es', '--data-dir', dataDir]);
    expect(device.code).toBe(2);
    expect(device.err).toMatch(/^gpu-lab run: error INVALID_PARAMS: --device cuda:3: esta máquina no tiene ese dispositivo; sus dispositivos son cpu\b/);
    const english = await gpuLab(['run', 'elementwise-breakeven', '--device', 'cpu', '--param', 'maxExponent=12', '--data-dir', dataDir]);
    expect(english.code).toBe(2);
    expect(english.err).toContain('INVALID_PARAMS: Parameter "maxExponent" of lab "elementwise-breakeven" = 12 is not allowed');
  }, 60_000);

  it("leads an engine error in Spanish and keeps its code and the engine's words (exit 1)", async () => {
    const r = await gpuLab(['runs', 'show', 'no-such-run', '--lang', 'es', '--data-dir', tempDir()]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^gpu-lab runs: error NOT_FOUND: \S/);
  });
});

describe('what gpu-lab writes for programs', () => {
  const dataDir = seeded();
  const run = fixture('h100-matmul-breakeven');

  const stored = ['--data-dir', dataDir];
  it.each([
    [['labs', '--json']],
    [['runs', 'list', '--json', ...stored]],
    [['runs', 'show', run.id, '--json', ...stored]],
    [['runs', 'export', run.id, '--format', 'json', ...stored]],
    [['runs', 'export', run.id, '--format', 'csv', ...stored]],
    [['runs', 'export', run.id, '--format', 'csv-samples', ...stored]],
  ])('%j is the same in English and in Spanish', async (argv) => {
    const en = await gpuLab([...argv, '--lang', 'en']);
    const es = await gpuLab([...argv, '--lang', 'es']);
    expect(en.code, en.err).toBe(0);
    expect(es.code, es.err).toBe(0);
    expect(es.out.length).toBeGreaterThan(100);
    expect(es.out).toBe(en.out);
  });
});

describe('a stored run in Spanish', () => {
  const dataDir = seeded();
  const run = fixture('h100-matmul-breakeven');

  it('runs show: the table and findings of a run recorded in English', async () => {
    const r = await gpuLab(['runs', 'show', run.id, '--lang', 'es', '--data-dir', dataDir]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/^ejecución \S+: completada en cuda:0, /m);
    expect(r.out).toMatch(/^GPU con transferencias, N = 1000\s+ok\s+\d+(,\d+)? (µs|ms)/m);
    expect(r.out).toMatch(/^ {2}• Como máximo, la BLAS de la CPU de GPU Lab.* alcanza \d+(,\d+)? (G|T)FLOP\/s/m);
  });

  it('runs report: the PDF in Spanish', async () => {
    const pdf = join(tempDir(), 'informe.pdf');
    const r = await gpuLab(['runs', 'report', run.id, '--pdf', pdf, '--lang', 'es', '--data-dir', dataDir]);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toMatch(/^informe escrito: .*informe\.pdf \(\d+ páginas, \d+ KiB\)$/m);
    const text = spaced(pdfText(pdf));
    expect(text).toContain('Punto de equilibrio del producto de matrices');
    expect(text).toContain('la BLAS de la CPU de GPU Lab');
    expect(text).toMatch(/\d,\d+ ms/);
  }, 60_000);
});
