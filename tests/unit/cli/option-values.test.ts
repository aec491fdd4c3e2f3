// An option is never taken as a value, no path is empty, and every number is read by one parser: `run … --json
// --quiet` used to write the record to a file named --quiet, `runs export --out ""` to print it, and `serve --port
// 0x50` to serve on port 80. Each is refused with exit 2 naming the option and what was typed, before anything runs.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { numberFormProblem } from '../../../main/cli/run.ts';

const bin = fileURLToPath(new URL('../../../bin/gpu-lab.js', import.meta.url));
const env = { ...process.env, LANGUAGE: '', LC_ALL: '', LC_MESSAGES: '', LANG: 'C.UTF-8' };

// gpu-lab in a folder of its own, so that a file it should not write would be found there. A command refused as it
// should be ends at once; one that wrongly goes on (a server) is stopped after 20 s.
function gpuLab(...args: string[]): { status: number | null; stdout: string; stderr: string; cwd: string } {
  const cwd = mkdtempSync(join(tmpdir(), 'gpu-lab-options-'));
  const r = spawnSync(process.execPath, [bin, ...args], { cwd, encoding: 'utf8', env, timeout: 20_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, cwd };
}

const quick = ['vector-function', '--device', 'cpu', '--param', 'elements=1000', '--param', 'repeats=2'];

describe('an option where a value is expected', () => {
  it.each([
    [['run', ...quick, '--json', '--quiet'], 'json', '--quiet'],
    [['run', ...quick, '--json=--quiet'], 'json', '--quiet'],
    [['run', ...quick, '--pdf', '--data-dir', '/tmp'], 'pdf', '--data-dir'],
    [['runs', 'report', 'some-run', '--pdf', '--author', 'Ana'], 'pdf', '--author'],
    [['serve', '--host', '--open'], 'host', '--open'],
    [['runs', 'list', '--lang', '--json'], 'lang', '--json'],
  ])('is refused with exit 2 naming the option: %j', (args, name, value) => {
    const r = gpuLab(...args);
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toContain(`--${name} needs a value, and "${value}" is an option; a file really named so is written ./${value}`);
    expect(readdirSync(r.cwd)).toEqual([]);
  }, 30_000);

  it('writes a file really named so where it is written ./--quiet', () => {
    const r = gpuLab('run', ...quick, '--data-dir', '.', '--json', './--quiet', '--quiet');
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(r.cwd, '--quiet'), 'utf8'))).toMatchObject({ lab: 'vector-function', status: 'completed' });
  }, 60_000);

  it('is said in Spanish too', () => {
    const r = gpuLab('run', ...quick, '--json', '--quiet', '--lang', 'es');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('a --json le falta el valor, y «--quiet» es una opción; un archivo que se llame así se escribe ./--quiet');
  }, 30_000);
});

describe('an empty path', () => {
  it.each([
    [['runs', 'export', 'some-run', '--out', ''], '--out'],
    [['run', ...quick, '--json', ''], '--json'],
    [['run', ...quick, '--pdf', ''], '--pdf'],
    [['run', ...quick, '--python', ''], '--python'],
    [['kernel', 'run', 'saxpy', ''], 'FILE'],
  ])('is refused everywhere with exit 2: %j', (args, name) => {
    const r = gpuLab(...args);
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toContain(`${name} needs a path; an empty one names no file`);
    expect(r.stdout).toBe('');
  }, 30_000);
});

describe('numbers given to options', () => {
  it.each([
    ['0x50', 'write the number in decimal digits (hexadecimal is not read here)'],
    ['0o120', 'write the number in decimal digits (octal is not read here)'],
    ['1e3', '--port takes a whole number in decimal digits, without a fraction or an exponent'],
    ['80.0', '--port takes a whole number in decimal digits, without a fraction or an exponent'],
    [' 80', 'write the number without spaces around it'],
    ['8_080', 'write the number in decimal digits, without underscores'],
  ])('serve --port %j is refused as --param refuses it, before serving', (value, why) => {
    const r = gpuLab('serve', '--port', value, '--data-dir', '.');
    expect(r.status, r.stdout + r.stderr).toBe(2);
    expect(r.stderr).toContain(`--port "${value}": ${why}`);
    expect(r.stdout).not.toContain('serving');
  }, 30_000);

  it('refuses the same forms for every other number: --threads, --scale, --size, --block and --param', () => {
    expect(gpuLab('bench', '--threads', '0x4').stderr).toContain('--threads "0x4": write the number in decimal digits (hexadecimal is not read here)');
    expect(gpuLab('bench', '--scale', '0x1p-1').stderr).toContain('--scale "0x1p-1": write the number in decimal digits (hexadecimal is not read here)');
    expect(gpuLab('kernel', 'run', 'saxpy', '--kernel', 'starter', '--size', '1e6').stderr).toContain('--size "1e6": --size takes a whole number');
    expect(gpuLab('kernel', 'run', 'saxpy', '--kernel', 'starter', '--block', '16, 16').stderr).toContain('--block " 16": write the number without spaces around it');
    const param = gpuLab('run', 'matmul', '--device', 'cpu', '--param', 'n= 80');
    expect(param.status).toBe(2);
    expect(param.stderr).toContain('--param n= 80: write the number without spaces around it');
  }, 60_000);

  it('tells a number alone from a list, whose items may be spaced after their commas', () => {
    expect(numberFormProblem('integer', ' 80')).toBe('spaces');
    expect(numberFormProblem('number', '2.5 ')).toBe('spaces');
    expect(numberFormProblem('integer-list', '100, 200,300')).toBeNull();
    expect(numberFormProblem('integer-list', '100, 0x200')).toBe('hex');
  });
});
