// Every file GPU Lab writes goes through here: a run record, a kernel run, a draft, and whatever lands at a path a
// person names (a PDF, --json FILE, a CSV or JSON export). The bytes go into a temporary file in the same folder,
// flushed, then renamed over the target, so that a failure at any point (a full disk, a folder that cannot be
// written, a crash) leaves the old file or none, never half of one, and no temporary file behind.
//
// Only a regular file is ever replaced. A rename would put a regular file in the place of a FIFO, a device node, a
// socket or a symbolic link (as root, `--pdf /dev/null` would replace the system's /dev/null), so those are refused
// naming the path and what it is, before anything is written. `-` means standard output.
import { randomBytes } from 'node:crypto';
import { access, constants, lstat, open, rename, rm } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { accessSync, existsSync, mkdirSync } from 'node:fs';
import type { Stats } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

import { GpuLabError } from '../common/errors.ts';

export const STDOUT_PATH = '-';

// What the path errors mean, in words; all but the last three are about the path a person gave.
const WHY: Record<string, string> = {
  ENOENT: 'its folder does not exist',
  ENOTDIR: 'a part of the path is a file, not a folder',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'the file system is read-only',
  EISDIR: 'it is a folder',
  ENAMETOOLONG: 'the name is too long',
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is exhausted',
  EIO: 'the disk reported an input/output error',
  EPIPE: 'its reader closed it',
};
const DEVICE_FAULTS = new Set(['ENOSPC', 'EDQUOT', 'EIO', 'EPIPE']);

// What stands at a path that is not a regular file, as an id (a catalog words it) and in English.
export type FileKind = 'symlink' | 'folder' | 'fifo' | 'char-device' | 'block-device' | 'socket' | 'other';

export const FILE_KIND_WORDS: Record<FileKind, string> = {
  symlink: 'a symbolic link',
  folder: 'a folder',
  fifo: 'a FIFO (a named pipe)',
  'char-device': 'a character device',
  'block-device': 'a block device',
  socket: 'a socket',
  other: 'not a regular file',
};

export function fileKind(stats: Stats): FileKind | null {
  if (stats.isFile()) return null;
  if (stats.isSymbolicLink()) return 'symlink';
  if (stats.isDirectory()) return 'folder';
  if (stats.isFIFO()) return 'fifo';
  if (stats.isCharacterDevice()) return 'char-device';
  if (stats.isBlockDevice()) return 'block-device';
  if (stats.isSocket()) return 'socket';
  return 'other';
}

function kindOf(stats: Stats): string | null {
  const kind = fileKind(stats);
  return kind === null ? null : FILE_KIND_WORDS[kind];
}

export interface WriteOptions {
  // What is written, for messages: "the report", "the run record".
  what?: string;
  // false skips the flush to disk: the rename still makes the write atomic for a crashing process.
  durable?: boolean;
  // Where `-` writes: resolves once the bytes are handed to the system, rejects where they cannot be (the reader of
  // a pipe gone). Standard output unless a caller (the CLI's streams, a test) says otherwise.
  stdout?: (data: string | Uint8Array) => Promise<void>;
}

function writeProcessStdout(data: string | Uint8Array): Promise<void> {
  return new Promise((resolve, reject) => process.stdout.write(data, (err) => (err ? reject(err) : resolve())));
}

function cannotWrite(path: string, what: string, err: unknown): GpuLabError {
  if (err instanceof GpuLabError) return err;
  const code = (err as NodeJS.ErrnoException).code ?? 'EIO';
  const why = WHY[code] ?? (err instanceof Error ? err.message : String(err));
  return new GpuLabError(DEVICE_FAULTS.has(code) ? 'WRITE_FAILED' : 'INVALID_ARGUMENT', `Cannot write ${what} to ${path}: ${why} (${code})`, {
    path,
    cause: code,
    reason: 'cannot-write',
  });
}

function emptyPath(what: string): GpuLabError {
  return new GpuLabError('INVALID_ARGUMENT', `Cannot write ${what} to an empty path: name a file, or - for standard output`, { path: '', reason: 'cannot-write' });
}

function notRegular(path: string, what: string, kind: string): GpuLabError {
  return new GpuLabError('INVALID_ARGUMENT', `Cannot write ${what} to ${path}: it is ${kind}, not a regular file; nothing was written`, {
    path,
    kind,
    reason: 'not-a-regular-file',
  });
}

// The target's state: null where there is none; refused where it is anything but a regular file.
async function existingRegular(path: string, target: string, what: string): Promise<Stats | null> {
  let stats: Stats;
  try {
    stats = await lstat(target);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw cannotWrite(path, what, err);
  }
  const kind = kindOf(stats);
  if (kind) throw notRegular(path, what, kind);
  return stats;
}

// Makes the folder `dir` (and its parents) where it is missing, or says in words why it cannot be: Node's recursive
// mkdir reports a read-only file system as ENOENT, so the cause is read from the nearest folder that exists.
export function ensureFolder(dir: string, what: string): void {
  try {
    mkdirSync(dir, { recursive: true });
    return;
  } catch (err) {
    let cause = err as NodeJS.ErrnoException;
    let existing = resolve(dir);
    while (!existsSync(existing) && dirname(existing) !== existing) existing = dirname(existing);
    try {
      accessSync(existing, constants.W_OK);
    } catch (denied) {
      cause = denied as NodeJS.ErrnoException;
    }
    const code = cause.code ?? 'EIO';
    throw new GpuLabError(DEVICE_FAULTS.has(code) ? 'WRITE_FAILED' : 'INVALID_ARGUMENT', `Cannot make ${what} ${dir}: ${WHY[code] ?? cause.message} (${code}${existing !== resolve(dir) ? ` at ${existing}` : ''})`, {
      path: dir,
      cause: code,
      reason: 'cannot-write',
    });
  }
}

// Whether `path` could be written, asked before work that takes minutes (a run) rather than after it.
export async function checkWritable(path: string, options: Pick<WriteOptions, 'what'> = {}): Promise<void> {
  const what = options.what ?? 'the file';
  if (path === STDOUT_PATH) return;
  if (path === '') throw emptyPath(what);
  const target = resolve(path);
  await existingRegular(path, target, what);
  try {
    await access(dirname(target), constants.W_OK);
  } catch (err) {
    throw cannotWrite(path, what, err);
  }
}

// Writes `data` to `path` whole or not at all; returns the absolute path written, or `-`.
export async function writeFileAtomic(path: string, data: string | Uint8Array, options: WriteOptions = {}): Promise<string> {
  const what = options.what ?? 'the file';
  if (path === STDOUT_PATH) {
    // A reader that stopped early got part of it at most: a failure, never "wrote -".
    await (options.stdout ?? writeProcessStdout)(data).catch((err: unknown) => Promise.reject(cannotWrite('standard output', what, err)));
    return STDOUT_PATH;
  }
  if (path === '') throw emptyPath(what);
  const target = resolve(path);
  const existing = await existingRegular(path, target, what);
  const temp = join(dirname(target), `.${basename(target)}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`);
  let file: FileHandle | null;
  try {
    // 'wx': never through a link or over a file someone put at the temporary name.
    file = await open(temp, 'wx', existing ? existing.mode & 0o777 : 0o666);
  } catch (err) {
    throw cannotWrite(path, what, err);
  }
  try {
    await file.writeFile(data);
    // Flushed before the rename, or a power cut could leave the new name on empty blocks.
    if (options.durable !== false) await file.sync();
    await file.close();
    file = null;
    // Checked again just before the rename: what stood there may have changed while the bytes were written.
    await existingRegular(path, target, what);
    await rename(temp, target);
    return target;
  } catch (err) {
    await file?.close().catch(() => undefined);
    await rm(temp, { force: true });
    throw cannotWrite(path, what, err);
  }
}
