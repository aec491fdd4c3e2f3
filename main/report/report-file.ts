// A report written to a file the way the run store writes records: into a temporary file in the same folder, flushed,
// then renamed over the target, so that a failure at any point (a full disk, a folder that cannot be written, a
// crash) leaves the old file or none, never half a PDF. The user's path is taken as given; what goes wrong with it
// comes back as INVALID_ARGUMENT naming the path and the system's reason.
import { randomBytes } from 'node:crypto';
import { access, constants, open, rename, rm, stat } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';

import { refuse } from './report-input.ts';

const WHY: Record<string, string> = {
  ENOENT: 'its folder does not exist',
  ENOTDIR: 'a part of the path is a file, not a folder',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'the file system is read-only',
  EISDIR: 'it is a folder',
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is exhausted',
  ENAMETOOLONG: 'the name is too long',
};

function cannotWrite(path: string, err: unknown): Error {
  const code = (err as NodeJS.ErrnoException).code ?? 'EIO';
  const why = WHY[code] ?? (err instanceof Error ? err.message : String(err));
  return refuse('INVALID_ARGUMENT', 'cannot-write', `Cannot write the report to ${path}: ${why} (${code})`, { path, cause: code });
}

// Whether a report could be written there, asked before work that takes minutes (a run) rather than after it.
export async function checkWritable(path: string): Promise<void> {
  const target = resolve(path);
  const existing = await stat(target).catch(() => null);
  if (existing?.isDirectory()) throw cannotWrite(path, Object.assign(new Error('is a folder'), { code: 'EISDIR' }));
  try {
    await access(dirname(target), constants.W_OK);
  } catch (err) {
    throw cannotWrite(path, err);
  }
}

export async function writeFileAtomic(path: string, bytes: Uint8Array): Promise<string> {
  const target = resolve(path);
  // A folder as the target would be replaced by nothing: refused before anything is written.
  const existing = await stat(target).catch(() => null);
  if (existing?.isDirectory()) throw cannotWrite(path, Object.assign(new Error('is a folder'), { code: 'EISDIR' }));
  const temp = join(dirname(target), `.${basename(target)}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`);
  let file: FileHandle | null;
  try {
    file = await open(temp, 'wx');
  } catch (err) {
    throw cannotWrite(path, err);
  }
  try {
    await file.writeFile(bytes);
    // Flushed before the rename, or a power cut could leave the new name on empty blocks.
    await file.sync();
    await file.close();
    file = null;
    await rename(temp, target);
    return target;
  } catch (err) {
    await file?.close().catch(() => undefined);
    await rm(temp, { force: true });
    throw cannotWrite(path, err);
  }
}
