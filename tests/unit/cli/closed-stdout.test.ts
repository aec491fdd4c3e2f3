// gpu-lab with a standard output nobody reads any more (`| head -2`, `| true`): the printing stops, nothing else. A run
// is measured to its end, stored whole, and exits with its own code; a file written to standard output (`--pdf -`)
// that cannot be is a failure (exit 1, WRITE_FAILED), never "wrote -". bash gives each command's own exit status.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

const bin = fileURLToPath(new URL('../../../bin/gpu-lab.js', import.meta.url));
const env = { ...process.env, LANGUAGE: '', LC_ALL: '', LC_MESSAGES: '', LANG: 'C.UTF-8' };

// `gpu-lab ARGS | reader`: the command's exit status and its stderr. `true` reads nothing and is gone before the
// command writes its first line; `head -2` stops after two.
function piped(reader: string, ...args: string[]): { status: number; stderr: string } {
  const dir = mkdtempSync(join(tmpdir(), 'gpu-lab-pipe-'));
  const err = join(dir, 'stderr');
  const quoted = args.map((a) => `'${a}'`).join(' ');
  const r = spawnSync('bash', ['-c', `"${process.execPath}" "${bin}" ${quoted} 2>"${err}" | ${reader}; echo "status=\${PIPESTATUS[0]}" >&2`], { env, encoding: 'utf8' });
  const status = /status=(\d+)/.exec(r.stderr)?.[1];
  return { status: Number(status), stderr: readFileSync(err, 'utf8') };
}

function stored(dataDir: string): { status: string; points: unknown[]; error: { code: string } | null }[] {
  const dir = join(dataDir, 'runs');
  return readdirSync(dir).map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as { status: string; points: unknown[]; error: { code: string } | null });
}

describe('a run whose standard output is closed', () => {
  it.each(['true', 'head -2'])('measures to the end and is stored whole (| %s): exit 0, completed, every point kept', (reader) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gpu-lab-pipe-data-'));
    const r = piped(reader, 'run', 'vector-function', '--device', 'cpu', '--param', 'elements=10000', '--param', 'repeats=3', '--data-dir', dataDir, '--quiet');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('EPIPE');
    const [record, ...others] = stored(dataDir);
    expect(others).toEqual([]);
    expect(record).toMatchObject({ status: 'completed', error: null });
    expect(record?.points.length).toBeGreaterThanOrEqual(5);
  }, 60_000);

  it('exits with the run’s own code: 3 for the transfer lab on a machine without a GPU, stored as waived', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gpu-lab-pipe-data-'));
    const r = piped('true', 'run', 'transfer', '--device', 'cpu', '--data-dir', dataDir, '--quiet');
    expect(r.status, r.stderr).toBe(3);
    expect(r.stderr).toMatch(/nothing was measured: all \d+ points were waived \(exit 3\)/);
    expect(stored(dataDir).map((s) => s.status)).toEqual(['waived']);
  }, 60_000);
});

describe('a report written to a closed standard output', () => {
  it('is a failure, exit 1 with WRITE_FAILED, and never says it was written', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gpu-lab-pipe-data-'));
    mkdirSync(join(dataDir, 'runs'));
    const fixture = fileURLToPath(new URL('../../fixtures/runs/cpu-matmul.json', import.meta.url));
    const { id } = JSON.parse(readFileSync(fixture, 'utf8')) as { id: string };
    copyFileSync(fixture, join(dataDir, 'runs', `${id}.json`));
    const r = piped('true', 'runs', 'report', id, '--pdf', '-', '--data-dir', dataDir);
    expect(r.status, r.stderr).toBe(1);
    expect(r.stderr).toContain('WRITE_FAILED: Cannot write the report to standard output: its reader closed it (EPIPE)');
    expect(r.stderr).not.toContain('wrote');
    // Read whole, it is written whole, and said so.
    const whole = spawnSync(process.execPath, [bin, 'runs', 'report', id, '--pdf', '-', '--data-dir', dataDir], { env });
    expect(whole.status, String(whole.stderr)).toBe(0);
    expect(whole.stdout.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(String(whole.stderr)).toMatch(/^wrote - \(\d+ pages?, \d+ KiB\)$/m);
  }, 120_000);
});
