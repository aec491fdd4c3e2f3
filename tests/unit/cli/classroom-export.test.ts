// `gpu-lab classroom export`, through runCli as the command runs it: the class of a data folder written as a CSV and
// a PDF in the language of --lang, the folder left exactly as it was (a class's server may be using it), the files
// written whole; and the refusals of what was typed, each naming what is wrong, with exit code 2 and no file.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

import { beforeAll, describe, expect, it } from 'vitest';

import { runCli } from '../../../main/cli/main.ts';
import { classFolder } from '../classroom/class-fixture.ts';
import type { ClassFolder } from '../classroom/class-fixture.ts';
import { readCsv } from '../classroom/csv-reader.ts';
import { pdfInfo, pdfText, tempDir } from '../reports/pdf-tools.ts';

async function gpuLab(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(argv, { out: (t) => (out += t), err: (t) => (err += t) }, {});
  return { code, out, err };
}

// Every file of a folder with its size and time: what a read-only command must leave as it was.
function snapshot(dir: string): string {
  const walk = (d: string): string[] => readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(d, e.name)) : [`${join(d, e.name)} ${statSync(join(d, e.name)).size} ${statSync(join(d, e.name)).mtimeMs}`]));
  return walk(dir).sort().join('\n');
}

let folder: ClassFolder;
beforeAll(async () => {
  folder = await classFolder(['Ana', 'Bob', '=cmd|"/c calc"!A1'].map((name) => ({ name, fixture: 'cpu-vector-function.json' })));
}, 60_000);

describe('gpu-lab classroom export', () => {
  it('writes the class’s CSV and PDF from its data folder, and changes nothing in it', async () => {
    const before = snapshot(folder.dataDir);
    const out = tempDir();
    const r = await gpuLab('classroom', 'export', '--data-dir', folder.dataDir, '--csv', join(out, 'class.csv'), '--pdf', join(out, 'class.pdf'), '--lang', 'es');
    expect(r.code, r.err).toBe(0);
    expect(r.err).toMatch(/escrito .*class\.csv \(3 ejecuciones\)/);
    expect(r.err).toMatch(/escrito .*class\.pdf \(\d+ páginas\)/);
    const [header = [], ...rows] = readCsv(readFileSync(join(out, 'class.csv'), 'utf8'));
    expect(rows.map((row) => row[header.indexOf('student')])).toEqual(['Ana', 'Bob', `'=cmd|"/c calc"!A1`]);
    expect(rows.map((row) => row[header.indexOf('run_id')])).toEqual(folder.runIds);
    expect(pdfInfo(join(out, 'class.pdf')).Title).toBe('Informe de la clase: HPC 2026');
    expect(pdfText(join(out, 'class.pdf')).replace(/\s+/g, ' ')).toContain('=cmd|"/c calc"!A1 · Una función vectorial');
    expect(snapshot(folder.dataDir)).toBe(before);
    // Nothing but the two files where they were asked for.
    expect(readdirSync(out).sort()).toEqual(['class.csv', 'class.pdf']);
  }, 120_000);

  it('writes the CSV to standard output with -', async () => {
    const r = await gpuLab('classroom', 'export', '--data-dir', folder.dataDir, '--csv', '-');
    expect(r.code, r.err).toBe(0);
    expect(readCsv(r.out)).toHaveLength(4);
  });

  it.each([
    [['classroom'], /classroom needs what to do/],
    [['classroom', 'import'], /classroom does "export", not "import"/],
    [['classroom', 'export'], /needs --pdf FILE, --csv FILE or both/],
    [['classroom', 'export', '--pdf', '-', '--csv', '-'], /cannot both be standard output/],
    [['classroom', 'export', '--csv', ''], /--csv/],
    [['classroom', 'export', '--csv', 'x.csv', '--data-dir', '/nonexistent/gpu-lab'], /\/nonexistent\/gpu-lab/],
  ])('refuses %j, saying what is wrong, with exit code 2', async (argv, said) => {
    const r = await gpuLab(...argv);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(said);
    expect(existsSync('x.csv')).toBe(false);
  });

  it('says there is no class in a data folder that has none, naming the file it looked for', async () => {
    const empty = tempDir();
    const r = await gpuLab('classroom', 'export', '--data-dir', empty, '--csv', join(empty, 'x.csv'));
    expect(r.code).toBe(1);
    expect(r.err).toContain(`There is no class in ${empty}`);
    expect(r.err).toContain(join(empty, 'classroom', 'class.json'));
    expect(existsSync(join(empty, 'x.csv'))).toBe(false);
    expect(existsSync(join(empty, 'classroom'))).toBe(false);
  });
});
