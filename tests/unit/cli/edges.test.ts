// gpu-lab at the edges of its input and output: numbers typed in another form than decimal digits, a parameter given
// twice, and a reader that stops reading early. Each is refused with exit 2 naming what was typed, or ends quietly.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { numberFormProblem } from '../../../main/cli/run.ts';

const bin = fileURLToPath(new URL('../../../bin/gpu-lab.js', import.meta.url));
const env = { ...process.env, LANGUAGE: '', LC_ALL: '', LC_MESSAGES: '', LANG: 'C.UTF-8' };

function gpuLab(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const dataDir = mkdtempSync(join(tmpdir(), 'gpu-lab-cli-edges-'));
  const r = spawnSync(process.execPath, [bin, ...args, '--data-dir', dataDir, '--quiet'], { encoding: 'utf8', env });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('numbers on the command line are decimal', () => {
  it('tells each other form apart, for integers, integer lists and numbers', () => {
    expect(numberFormProblem('integer', '0x10')).toBe('hex');
    expect(numberFormProblem('integer', '0o100')).toBe('octal');
    expect(numberFormProblem('integer', '0b101')).toBe('binary');
    expect(numberFormProblem('integer', '1_000')).toBe('underscore');
    expect(numberFormProblem('integer', '1e3')).toBe('notInteger');
    expect(numberFormProblem('integer', '2.5')).toBe('notInteger');
    expect(numberFormProblem('integer-list', '100,0x200,300')).toBe('hex');
    expect(numberFormProblem('integer-list', '100, 200,300')).toBeNull();
    // A number that may have a fraction takes one, and an exponent, but not the other forms.
    expect(numberFormProblem('number', '2.5')).toBeNull();
    expect(numberFormProblem('number', '1e-3')).toBeNull();
    expect(numberFormProblem('number', '0x1p3')).toBe('hex');
    expect(numberFormProblem('integer', '4096')).toBeNull();
    expect(numberFormProblem('integer', '-3')).toBeNull();
    // Words are the choice parameters' own business.
    expect(numberFormProblem('choice', '0x10')).toBeNull();
  });

  it('refuses them with exit 2, naming the parameter, the value and the form, in English and Spanish', () => {
    for (const [value, says] of [
      ['0x10', 'hexadecimal is not read here'],
      ['0o100', 'octal is not read here'],
      ['1_000', 'without underscores'],
      ['1e3', 'n takes a whole number in decimal digits, without a fraction or an exponent'],
    ] as const) {
      const r = gpuLab('run', 'matmul', '--device', 'cpu', '--param', `n=${value}`);
      expect(r.status, r.stderr).toBe(2);
      expect(r.stderr).toContain(`gpu-lab run: --param n=${value}: `);
      expect(r.stderr).toContain(says);
    }
    const es = gpuLab('run', 'matmul', '--device', 'cpu', '--param', 'n=0x10', '--lang', 'es');
    expect(es.status).toBe(2);
    expect(es.stderr).toContain('--param n=0x10: escribe el número con cifras decimales (aquí no se lee el hexadecimal)');
  }, 60_000);

  it('refuses a parameter given twice instead of keeping the last', () => {
    const r = gpuLab('run', 'matmul', '--device', 'cpu', '--param', 'n=64', '--param', 'n=128');
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toContain('--param n=… is given twice; give it once');
  }, 60_000);
});

describe('a reader that stops early', () => {
  it('ends the command quietly with exit 0, not with an EPIPE stack', () => {
    // The labs as JSON fill more than a shell's pipe holds (80 KB against 64 KiB); head stops after 100 bytes, and
    // the rest is written to a closed pipe. bash gives the command's own exit status; its stderr goes to a file.
    const err = join(mkdtempSync(join(tmpdir(), 'gpu-lab-epipe-')), 'stderr');
    const r = spawnSync('bash', ['-c', `"${process.execPath}" "${bin}" labs --json 2>"${err}" | head -c 100 > /dev/null; echo "status=\${PIPESTATUS[0]}"`], { env, encoding: 'utf8' });
    expect(r.stdout.trim()).toBe('status=0');
    const stderr = readFileSync(err, 'utf8');
    expect(stderr).not.toContain('EPIPE');
    expect(stderr).not.toContain('Unhandled');
  }, 60_000);
});

describe('the data folder', () => {
  const raw = (cwd: string, extraEnv: Record<string, string>, ...args: string[]) => spawnSync(process.execPath, [bin, ...args], { cwd, encoding: 'utf8', env: { ...env, ...extraEnv } });

  it('must be a path: an empty --data-dir is refused (exit 2), not read as the current folder', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'gpu-lab-cwd-'));
    for (const args of [['run', 'vector-function', '--device', 'cpu', '--data-dir', ''], ['runs', 'list', '--data-dir', ' ']]) {
      const r = raw(cwd, {}, ...args);
      expect(r.status, r.stderr).toBe(2);
      expect(r.stderr).toContain('--data-dir needs a folder; an empty path is not one');
    }
    expect(existsSync(join(cwd, 'runs'))).toBe(false);
  }, 60_000);

  it('is never created by a command that only reads it: a mistyped one is said to be missing, the default is simply empty', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'gpu-lab-cwd-'));
    const typo = join(cwd, 'typo');
    for (const args of [['runs', 'list', '--data-dir', typo], ['report', '--all-labs', '--pdf', join(cwd, 'x.pdf'), '--data-dir', typo]]) {
      const r = raw(cwd, {}, ...args);
      expect(r.status, r.stderr).toBe(2);
      expect(r.stderr).toContain(`--data-dir ${typo}: no such folder`);
    }
    expect(existsSync(typo)).toBe(false);
    // No --data-dir and nothing stored yet: no runs, and the default folder is still not made.
    const home = mkdtempSync(join(tmpdir(), 'gpu-lab-xdg-'));
    const r = raw(cwd, { XDG_DATA_HOME: home }, 'runs', 'list');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('no runs in');
    expect(existsSync(join(home, 'gpu-lab'))).toBe(false);
  }, 60_000);
});

describe('a run that measures nothing', () => {
  it('is not a success: the transfer lab on a machine without a GPU exits 3, says every point was waived and is stored as waived', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gpu-lab-cli-waived-'));
    const r = spawnSync(process.execPath, [bin, 'run', 'transfer', '--device', 'cpu', '--data-dir', dataDir, '--quiet'], { encoding: 'utf8', env });
    expect(r.status, r.stderr).toBe(3);
    expect(r.stderr).toMatch(/^gpu-lab run: nothing was measured: all \d+ points were waived \(exit 3\)$/m);
    expect(r.stdout).toMatch(/^waived \(nothing measured\) — stored as \S+-transfer-/m);
    // The record on disk says so too, and the list reads it so: not 'completed'.
    const [file] = readdirSync(join(dataDir, 'runs')).filter((f) => f.endsWith('.json'));
    expect(JSON.parse(readFileSync(join(dataDir, 'runs', file ?? ''), 'utf8')).status).toBe('waived');
    const list = spawnSync(process.execPath, [bin, 'runs', 'list', '--data-dir', dataDir], { encoding: 'utf8', env });
    expect(list.stdout).toMatch(/-transfer-\S+\s+waived \(nothing measured\)\s+cpu/);
  }, 60_000);
});

describe('reading the stored runs', () => {
  it('lists them under a header, every column aligned, and exports CSV rows that name their run and lab; labs LAB explains one lab', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gpu-lab-cli-list-'));
    const at = (...args: string[]) => spawnSync(process.execPath, [bin, ...args, '--data-dir', dataDir], { encoding: 'utf8', env });
    expect(at('run', 'vector-function', '--device', 'cpu', '--param', 'elements=1000', '--param', 'repeats=2', '--quiet').status).toBe(0);
    expect(at('run', 'timing-pitfalls', '--device', 'cpu', '--param', 'n=64', '--quiet').status).toBe(0);
    const lines = at('runs', 'list').stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^run\s+status\s+device\s+points\s+error$/);
    expect(lines).toHaveLength(3);
    // Each column starts at the same place on every line.
    for (const word of ['status', 'device']) {
      const col = lines[0]?.indexOf(word) ?? -1;
      for (const line of lines.slice(1)) expect(line[col - 1]).toBe(' ');
      for (const line of lines.slice(1)) expect(line[col]).not.toBe(' ');
    }
    const id = lines[1]?.split(/\s+/)[0] ?? '';
    const csv = at('runs', 'export', id, '--format', 'csv').stdout.trimEnd().split('\n');
    const lab = id.split('-').slice(1, -1).join('-');
    expect(csv.slice(1).every((row) => row.startsWith(`${id},${lab},`))).toBe(true);

    const about = spawnSync(process.execPath, [bin, 'labs', 'matmul'], { encoding: 'utf8', env });
    expect(about.status).toBe(0);
    expect(about.stdout).toMatch(/^matmul {2}— {2}Matrix product/);
    expect(about.stdout).toContain('What to look for');
    expect(about.stdout).toContain('--param n=');
    expect(about.stdout).not.toContain('dtypes  —');
    const unknown = spawnSync(process.execPath, [bin, 'labs', 'matmal'], { encoding: 'utf8', env });
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('unknown lab "matmal"; the labs are transfer, dtypes, matmul');
  }, 120_000);
});

describe('a FIFO named like a record in the runs folder', () => {
  it('blocks neither runs list, nor runs show, nor report --all-labs: it is named and skipped', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gpu-lab-cli-fifo-'));
    mkdirSync(join(dataDir, 'runs'));
    const fixture = fileURLToPath(new URL('../../fixtures/runs/cpu-vector-function.json', import.meta.url));
    const { id } = JSON.parse(readFileSync(fixture, 'utf8')) as { id: string };
    copyFileSync(fixture, join(dataDir, 'runs', `${id}.json`));
    const fifo = join(dataDir, 'runs', 'stuck.json');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    // Each used to wait for a writer for ever; 30 s is far beyond what any of them takes.
    const at = (...args: string[]) => spawnSync(process.execPath, [bin, ...args, '--data-dir', dataDir], { encoding: 'utf8', env, timeout: 30_000 });
    const list = at('runs', 'list');
    expect(list.status, list.stderr).toBe(0);
    expect(list.stdout).toContain(id);
    expect(list.stderr).toContain(`${fifo}: it is a FIFO (a named pipe), not a regular file`);
    const show = at('runs', 'show', 'stuck');
    expect(show.status, show.stderr).toBe(1);
    expect(show.stderr).toContain('NOT_FOUND');
    const report = at('report', '--all-labs', '--pdf', join(dataDir, 'labs.pdf'));
    expect(report.status, report.stderr).toBe(0);
    expect(report.stdout).toContain(id);
  }, 120_000);
});

describe('a path given where a run id is expected', () => {
  it('is bad input (exit 2), said as not being a run id, and reads nothing', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gpu-lab-cli-ids-'));
    for (const args of [['show', '../../etc/passwd'], ['export', 'a/b'], ['delete', '../runs/x'], ['report', '/etc/passwd', '--pdf', join(dataDir, 'x.pdf')]]) {
      const r = spawnSync(process.execPath, [bin, 'runs', ...args, '--data-dir', dataDir], { encoding: 'utf8', env });
      expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toContain(`"${args[1] ?? ''}" is not a run id (1 to 120 letters, digits, . _ -)`);
      expect(r.stdout).toBe('');
    }
  }, 60_000);
});

describe('every command’s --help', () => {
  it('gives the exit codes, kernel run’s included, in the language asked for', () => {
    for (const command of [['run'], ['runs'], ['labs'], ['devices'], ['report'], ['kernel'], ['kernel', 'run'], ['serve'], ['bench']]) {
      const en = spawnSync(process.execPath, [bin, ...command, '--help'], { encoding: 'utf8', env });
      expect(en.status, command.join(' ')).toBe(0);
      expect(en.stdout, command.join(' ')).toMatch(/^Exit codes: 0 done .*; 2 bad usage or input; 3 a run that measured nothing .*; 130 a run cancelled by Ctrl-C/m);
    }
    const es = spawnSync(process.execPath, [bin, 'run', '--help', '--lang', 'es'], { encoding: 'utf8', env });
    expect(es.stdout).toMatch(/^Códigos de salida: 0 hecho/m);
  }, 120_000);
});
