// The desktop app's settings file, on real files in a folder of each test's own: no file gives the defaults; a file
// that is not JSON, not settings, or cannot be read is moved aside (never lost), the reason logged, the defaults
// used; a change is checked (absolute, there, a file, executable), written whole, and a folder that cannot be
// written or a full disk fails it with the reason, leaving the old file as it was. Mounting a read-only or a full
// file system needs root (CI and the build machines are root); elsewhere those tests say why they are skipped.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { GpuLabError } from '../../../main/common/errors.ts';
import { SETTINGS_FILE, SettingsStore, pythonPathProblem } from '../../../main/app/settings-store.ts';

const made: string[] = [];
function folder(prefix = 'gpu-lab-settings-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

function executable(dir: string, name = 'python3', mode = 0o755): string {
  const path = join(dir, name);
  writeFileSync(path, '#!/bin/sh\nexit 0\n', { mode });
  chmodSync(path, mode);
  return path;
}

const fixedNow = () => new Date('2026-03-01T10:20:30.456Z');
const ASIDE = `${SETTINGS_FILE}.unreadable-2026-03-01T10-20-30-456Z`;

function opened(dir: string): { store: SettingsStore; warnings: string[] } {
  const warnings: string[] = [];
  return { store: SettingsStore.open(dir, { warn: (m) => warnings.push(m), now: fixedNow }), warnings };
}

async function refusal(promise: Promise<unknown>): Promise<GpuLabError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(err instanceof GpuLabError)) throw new Error(`expected a GpuLabError, got ${String(err)}`);
  return err;
}

// Small file systems for the disk's failures, where this user may mount them.
function mount(options: string): string | null {
  const dir = folder('gpu-lab-settings-mount-');
  return spawnSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', dir]).status === 0 ? dir : null;
}
const readOnly = mount('size=64k,ro');
const full = mount('size=4k');
if (!readOnly || !full) process.stderr.write('settings-store: the read-only and full-disk cases are skipped: a tmpfs cannot be mounted here (not root)\n');

afterAll(() => {
  for (const dir of [readOnly, full]) if (dir) spawnSync('umount', [dir]);
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

describe('reading the settings at start', () => {
  it('gives the defaults where there is no file, and writes nothing', () => {
    const dir = folder();
    const { store, warnings } = opened(dir);
    expect(store.get()).toEqual({ python: null });
    expect(warnings).toEqual([]);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('reads the interpreter, and keeps what it does not know (a later version’s settings)', async () => {
    const dir = folder();
    const python = executable(folder());
    const other = executable(folder());
    writeFileSync(join(dir, SETTINGS_FILE), JSON.stringify({ python, theme: 'dark' }));
    const { store, warnings } = opened(dir);
    expect(store.get()).toEqual({ python });
    expect(warnings).toEqual([]);
    await store.setPython(other);
    expect(JSON.parse(readFileSync(join(dir, SETTINGS_FILE), 'utf8'))).toEqual({ python: other, theme: 'dark' });
  });

  it.each([
    ['not JSON', '{"python": "/usr/bin/pyth', 'it is not JSON'],
    ['a list', '["/usr/bin/python3"]', 'it holds a list, not an object of settings'],
    ['a relative interpreter', '{"python": "venv/bin/python"}', '"python" is "venv/bin/python", not null nor an absolute path'],
    ['a number for the interpreter', '{"python": 3}', '"python" is 3, not null nor an absolute path'],
    ['an empty file', '', 'it is not JSON'],
  ])('moves %s aside, says why and where it is, and uses the defaults', (_, text, why) => {
    const dir = folder();
    writeFileSync(join(dir, SETTINGS_FILE), text);
    const { store, warnings } = opened(dir);
    expect(store.get()).toEqual({ python: null });
    expect(readdirSync(dir)).toEqual([ASIDE]);
    expect(readFileSync(join(dir, ASIDE), 'utf8')).toBe(text);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(`the settings file ${join(dir, SETTINGS_FILE)} was not used, it does not hold GPU Lab's settings: ${why}`);
    expect(warnings[0]).toContain(`It was kept as ${join(dir, ASIDE)}; the default settings apply`);
  });

  it('moves aside a settings "file" that cannot be read (a folder), with what was in it', () => {
    const dir = folder();
    mkdirSync(join(dir, SETTINGS_FILE));
    writeFileSync(join(dir, SETTINGS_FILE, 'inside'), 'kept');
    const { store, warnings } = opened(dir);
    expect(store.get()).toEqual({ python: null });
    expect(warnings[0]).toContain('it cannot be read: it is a folder (EISDIR)');
    expect(readFileSync(join(dir, ASIDE, 'inside'), 'utf8')).toBe('kept');
  });

  it.skipIf(!readOnly)('leaves a bad file it cannot move aside where it is, says so, and refuses to write over it', async () => {
    // A bad file on a file system that then turned read-only: it can be neither moved nor replaced.
    const dir = folder();
    const mounted = join(dir, 'ro');
    mkdirSync(mounted);
    expect(spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', mounted]).status).toBe(0);
    try {
      writeFileSync(join(mounted, SETTINGS_FILE), 'not json');
      expect(spawnSync('mount', ['-o', 'remount,ro', mounted]).status).toBe(0);
      const { store, warnings } = opened(mounted);
      expect(store.get()).toEqual({ python: null });
      expect(warnings[0]).toContain('It could not be moved aside either (');
      expect(warnings[0]).toContain('EROFS');
      const err = await refusal(store.setPython(executable(folder())));
      expect(err.code).toBe('WRITE_FAILED');
      expect(err.message).toContain(`${join(mounted, SETTINGS_FILE)} could not be read when the app started and cannot be moved aside`);
      expect(readFileSync(join(mounted, SETTINGS_FILE), 'utf8')).toBe('not json');
    } finally {
      spawnSync('umount', [mounted]);
    }
  });
});

describe('checking an interpreter', () => {
  const dir = folder();
  const python = executable(dir);

  it('takes an absolute path to an executable file, through a symbolic link too (a venv’s python)', () => {
    const link = join(dir, 'venv-python');
    symlinkSync(python, link);
    expect(pythonPathProblem(python)).toBeNull();
    expect(pythonPathProblem(link)).toBeNull();
  });

  it.each([
    ['a relative path', 'venv/bin/python', 'relative', 'it is a relative path'],
    ['a bare name', 'python3', 'relative', 'it is a relative path'],
    ['an empty path', '', 'empty', 'it is empty'],
    ['a path to nothing', '/no/such/python3', 'missing', 'there is no file there'],
    ['a folder', '/usr', 'folder', 'it is a folder'],
    ['a number', 3, 'not-a-path', 'it is a number, not a path'],
    ['null', null, 'not-a-path', 'it is null, not a path'],
    ['a NUL byte', '/usr/bin/python3\0--evil', 'not-a-path', 'it holds a NUL character'],
    ['a path too long', `/${'a'.repeat(5000)}`, 'too-long', 'characters long, more than 4096'],
  ])('refuses %s, naming the setting, the value and what is expected', (_, value, reason, why) => {
    const err = pythonPathProblem(value);
    expect(err?.code).toBe('INVALID_ARGUMENT');
    expect(err?.details).toMatchObject({ field: 'python', reason });
    expect(err?.message).toMatch(/^The setting "python" = .* is not allowed: expected an absolute path to an executable file, such as \/usr\/bin\/python3/);
    expect(err?.message).toContain(why);
  });

  it('refuses a file that is not executable, even for root', () => {
    const plain = executable(dir, 'python-not-x', 0o644);
    const err = pythonPathProblem(plain);
    expect(err?.details).toMatchObject({ field: 'python', value: plain, reason: 'not-executable' });
    expect(err?.message).toContain(`The setting "python" = "${plain}" is not allowed`);
    expect(err?.message).toContain('the file is not executable');
  });
});

describe('changing the interpreter', () => {
  it('writes the file whole, with no temporary file left, and a new store reads it back', async () => {
    const dir = folder();
    const python = executable(folder());
    const { store } = opened(dir);
    expect(await store.setPython(python)).toEqual({ python });
    expect(readdirSync(dir)).toEqual([SETTINGS_FILE]);
    expect(opened(dir).store.get()).toEqual({ python });
    expect(await store.setPython(null)).toEqual({ python: null });
    expect(opened(dir).store.get()).toEqual({ python: null });
  });

  it('makes the user-data folder where it is missing', async () => {
    const dir = join(folder(), 'GPU Lab');
    const python = executable(folder());
    await opened(dir).store.setPython(python);
    expect(existsSync(join(dir, SETTINGS_FILE))).toBe(true);
  });

  it('refuses a relative path or a file that is not executable, and writes nothing', async () => {
    const dir = folder();
    const { store } = opened(dir);
    expect((await refusal(store.setPython('venv/bin/python'))).details).toMatchObject({ field: 'python', value: 'venv/bin/python', reason: 'relative' });
    expect((await refusal(store.setPython(executable(folder(), 'python3', 0o600)))).details).toMatchObject({ reason: 'not-executable' });
    expect(store.get()).toEqual({ python: null });
    expect(readdirSync(dir)).toEqual([]);
  });

  it('fails with the reason where the folder is a file, and keeps the setting it had', async () => {
    const parent = folder();
    writeFileSync(join(parent, 'not-a-folder'), '');
    const { store } = opened(join(parent, 'not-a-folder'));
    const err = await refusal(store.setPython(executable(folder())));
    expect(err.message).toContain('Cannot make the settings folder');
    expect(store.get()).toEqual({ python: null });
  });

  it.skipIf(!readOnly)('fails on a folder that cannot be written (a read-only file system), naming it', async () => {
    const { store } = opened(readOnly ?? '');
    const err = await refusal(store.setPython(executable(folder())));
    expect(err.message).toContain(`Cannot write the settings to ${join(readOnly ?? '', SETTINGS_FILE)}: the file system is read-only (EROFS)`);
    expect(store.get()).toEqual({ python: null });
  });

  it.skipIf(!full)('fails on a full disk with WRITE_FAILED, leaving the old file as it was and no temporary file', async () => {
    const dir = full ?? '';
    const before = executable(folder());
    writeFileSync(join(dir, SETTINGS_FILE), JSON.stringify({ python: before }));
    // The rest of the 4 KiB taken.
    spawnSync('sh', ['-c', `cat /dev/zero > ${JSON.stringify(join(dir, 'filler'))}`]);
    const { store } = opened(dir);
    const err = await refusal(store.setPython(executable(folder(), `python3-${'x'.repeat(200)}`)));
    expect(err.code).toBe('WRITE_FAILED');
    expect(err.message).toContain('the disk is full (ENOSPC)');
    expect(store.get()).toEqual({ python: before });
    expect(JSON.parse(readFileSync(join(dir, SETTINGS_FILE), 'utf8'))).toEqual({ python: before });
    expect(readdirSync(dir).filter((f) => f.includes('.tmp-'))).toEqual([]);
  });

  it('applies changes one after another, the last one winning', async () => {
    const dir = folder();
    const a = executable(folder());
    const b = executable(folder());
    const { store } = opened(dir);
    await Promise.all([store.setPython(a), store.setPython(b), store.setPython(null), store.setPython(a)]);
    expect(opened(dir).store.get()).toEqual({ python: a });
  });
});
