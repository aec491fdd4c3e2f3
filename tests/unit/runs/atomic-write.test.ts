// The one helper every file GPU Lab writes goes through: a regular file is replaced whole, anything else that stands
// at the path (a FIFO, a device node, a socket, a folder, a symbolic link) is refused naming the path and what it
// is, and left exactly as it was, with no temporary file beside it. `-` is standard output.
import { execFileSync } from 'node:child_process';
import { chmodSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { GpuLabError } from '../../../main/common/errors.ts';
import { checkWritable, writeFileAtomic } from '../../../main/runs/atomic-write.ts';
import { tempDir } from '../reports/pdf-tools.ts';

async function refusal(p: Promise<unknown>): Promise<GpuLabError> {
  const err = await p.then(() => null, (e: unknown) => e);
  if (!(err instanceof GpuLabError)) throw new Error(`expected a GpuLabError, got ${String(err)}`);
  return err;
}

// What stands at a path, as lstat tells it.
function typeAt(path: string): string {
  const s = lstatSync(path);
  return s.isSymbolicLink() ? 'link' : s.isFIFO() ? 'fifo' : s.isCharacterDevice() ? 'chardev' : s.isSocket() ? 'socket' : s.isDirectory() ? 'dir' : 'file';
}

const isRoot = process.getuid?.() === 0;

describe('writeFileAtomic', () => {
  const cases: [string, (dir: string) => Promise<string> | string, RegExp][] = [
    ['a FIFO', (dir) => (execFileSync('mkfifo', [join(dir, 'p')]), join(dir, 'p')), /it is a FIFO \(a named pipe\), not a regular file/],
    ['a folder', (dir) => (mkdirSync(join(dir, 'd')), join(dir, 'd')), /it is a folder, not a regular file/],
    [
      'a symbolic link to a regular file',
      (dir) => (writeFileSync(join(dir, 'real.pdf'), 'precious'), symlinkSync(join(dir, 'real.pdf'), join(dir, 'l')), join(dir, 'l')),
      /it is a symbolic link, not a regular file/,
    ],
    ['a dangling symbolic link', (dir) => (symlinkSync(join(dir, 'nowhere'), join(dir, 'dl')), join(dir, 'dl')), /it is a symbolic link/],
    [
      'a socket',
      (dir) =>
        new Promise<string>((done) => {
          const path = join(dir, 's');
          const server = createServer().listen(path, () => done(path));
          server.unref();
        }),
      /it is a socket, not a regular file/,
    ],
  ];
  if (isRoot) {
    // The same device numbers as /dev/null (1, 3), made in a folder of the test's own.
    cases.push(['a device node like /dev/null', (dir) => (execFileSync('mknod', [join(dir, 'null'), 'c', '1', '3']), join(dir, 'null')), /it is a character device, not a regular file/]);
  }

  it.each(cases)('refuses %s, names the path and what it is, and leaves it as it was', async (_, make, kind) => {
    const dir = tempDir('gpu-lab-atomic-');
    const path = await make(dir);
    const before = { type: typeAt(path), entries: readdirSync(dir).sort(), link: typeAt(path) === 'link' ? readlinkSync(path) : null };
    // One at a time: a refusal made before it is awaited would be an unhandled rejection.
    for (const attempt of [() => writeFileAtomic(path, 'new bytes', { what: 'the report' }), () => checkWritable(path, { what: 'the report' })]) {
      const r = await refusal(attempt());
      expect(r.code).toBe('INVALID_ARGUMENT');
      expect(r.message).toContain(`Cannot write the report to ${path}`);
      expect(r.message).toMatch(kind);
      expect(r.details).toMatchObject({ path, reason: 'not-a-regular-file' });
    }
    expect({ type: typeAt(path), entries: readdirSync(dir).sort(), link: before.link === null ? null : readlinkSync(path) }).toEqual(before);
    if (before.link?.endsWith('real.pdf')) expect(readFileSync(join(dir, 'real.pdf'), 'utf8')).toBe('precious');
  });

  it('replaces a regular file whole, keeps its permissions, and leaves no temporary file', async () => {
    const dir = tempDir('gpu-lab-atomic-');
    const path = join(dir, 'run.json');
    writeFileSync(path, 'old');
    chmodSync(path, 0o600);
    expect(await writeFileAtomic(path, '{"new": true}')).toBe(path);
    expect(readFileSync(path, 'utf8')).toBe('{"new": true}');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['run.json']);
  });

  it('writes `-` to standard output and touches no file named -', async () => {
    const dir = tempDir('gpu-lab-atomic-');
    const chunks: string[] = [];
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      expect(await writeFileAtomic('-', 'a,b\n', { stdout: async (c) => void chunks.push(String(c)) })).toBe('-');
    } finally {
      process.chdir(cwd);
    }
    expect(chunks).toEqual(['a,b\n']);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('refuses an empty path rather than writing somewhere unnamed', async () => {
    const r = await refusal(writeFileAtomic('', 'x', { what: 'the export' }));
    expect(r.message).toMatch(/Cannot write the export to an empty path/);
  });
});
