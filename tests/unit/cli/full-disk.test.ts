// gpu-lab run onto a disk that fills up, on a real one: a tmpfs of one 4 KiB page holds the run's first record but not its
// finished one. The run is a failure (exit 1, WRITE_FAILED naming the folder), never "stored", and no temporary file
// is left behind; a read-only one is named as such. Mounting needs root (CI and the build machines are root); elsewhere the test says why it is skipped.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, describe, expect, it } from 'vitest';

const bin = fileURLToPath(new URL('../../../bin/gpu-lab.js', import.meta.url));
const env = { ...process.env, LANGUAGE: '', LC_ALL: '', LC_MESSAGES: '', LANG: 'C.UTF-8' };

const mountPoint = mkdtempSync(join(tmpdir(), 'gpu-lab-full-'));
const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=4k', 'tmpfs', mountPoint], { encoding: 'utf8' });
const canMount = mounted.status === 0;
if (!canMount) process.stderr.write(`full-disk test skipped: cannot mount a small tmpfs here (${(mounted.stderr || mounted.error?.message || '').trim()})\n`);

// A read-only file system, as a data folder on a mount that turned read-only.
const readOnly = mkdtempSync(join(tmpdir(), 'gpu-lab-ro-'));
const canMountReadOnly = canMount && spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k,ro', 'tmpfs', readOnly]).status === 0;

afterAll(() => {
  if (canMount) spawnSync('umount', [mountPoint]);
  if (canMountReadOnly) spawnSync('umount', [readOnly]);
  rmSync(mountPoint, { recursive: true, force: true });
  rmSync(readOnly, { recursive: true, force: true });
});

describe('a run onto a disk that fills up', () => {
  it.skipIf(!canMount)('fails with exit 1 and WRITE_FAILED, says nothing was stored, and leaves no temporary file', () => {
    const r = spawnSync(process.execPath, [bin, 'run', 'vector-function', '--device', 'cpu', '--param', 'elements=1000', '--param', 'repeats=2', '--data-dir', mountPoint, '--quiet'], { encoding: 'utf8', env });
    expect(r.status, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/WRITE_FAILED/);
    expect(r.stdout + r.stderr).toContain('the disk is full (ENOSPC)');
    expect(r.stdout).not.toContain('stored as');
    const left = readdirSync(join(mountPoint, 'runs'));
    expect(left.filter((f) => f.includes('.tmp-'))).toEqual([]);
  }, 60_000);

  it.skipIf(!canMountReadOnly)('onto a read-only file system says so (EROFS), not that a folder does not exist, and exits 2', () => {
    const r = spawnSync(process.execPath, [bin, 'run', 'vector-function', '--device', 'cpu', '--param', 'elements=1000', '--data-dir', readOnly, '--quiet'], { encoding: 'utf8', env });
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toContain(`Cannot make the runs folder ${join(readOnly, 'runs')}: the file system is read-only (EROFS`);
    expect(r.stderr).not.toContain('ENOENT');
  }, 60_000);
});
