// Every file GPU Lab reads that someone else may have put in place (a run record, a kernel run, a draft in the data
// folder; a kernel source named on the command line) is read here. Only a regular file is opened: a FIFO blocks its
// reader (and the thread of Node's file pool that waits with it) until someone writes to it, a device such as
// /dev/zero never ends, and a symbolic link in the data folder may lead anywhere on the machine. A size cap far above
// any real file is checked before a byte is read. The file is opened non-blocking and without following a link, and
// checked again once open, so a file swapped for a FIFO or a link after it was looked at is refused too.
import { constants } from 'node:fs';
import type { Stats } from 'node:fs';
import { lstat, open, stat } from 'node:fs/promises';

import { GpuLabError } from '../common/errors.ts';
import { FILE_KIND_WORDS, fileKind } from './atomic-write.ts';
import type { FileKind } from './atomic-write.ts';

// The largest run record measured so far is 0.6 MB (an H100's transfer lab), the largest kernel source a few KB.
export const MAX_RECORD_BYTES = 64 * 1024 * 1024;
export const MAX_KERNEL_SOURCE_BYTES = 1024 * 1024;

export interface ReadOptions {
  maxBytes: number;
  // What the file is, for messages: "run file", "kernel source".
  what: string;
  // A path a person typed may lead through a link to a regular file (their kernel in another folder); a file in the
  // data folder may not.
  followLinks?: boolean;
}

export interface RegularFile {
  text: string;
  stats: Stats;
}

// Why a file was not read: `kind` where it is not a regular file, `bytes` and `maxBytes` where it is too large, `cause`
// (the errno code) where the system refused. A missing file is NOT_FOUND; anything else INVALID_ARGUMENT.
export interface Unread {
  path: string;
  reason: 'missing' | 'not-a-regular-file' | 'too-large' | 'unreadable';
  kind?: FileKind;
  bytes?: number;
  maxBytes?: number;
  cause?: string;
}

function refused(what: string, unread: Unread): GpuLabError {
  const { path } = unread;
  let why: string;
  if (unread.reason === 'missing') why = 'no such file';
  else if (unread.reason === 'not-a-regular-file') why = `it is ${FILE_KIND_WORDS[unread.kind ?? 'other']}, not a regular file${unread.kind === 'symlink' ? ' (not followed)' : ''}`;
  else if (unread.reason === 'too-large') why = `it holds ${unread.bytes ?? 0} bytes, more than the ${unread.maxBytes ?? 0} a ${what} may hold`;
  else why = `the system refused it (${unread.cause ?? 'unknown'})`;
  return new GpuLabError(unread.reason === 'missing' ? 'NOT_FOUND' : 'INVALID_ARGUMENT', `Not reading the ${what} ${path}: ${why}`, { ...unread });
}

function tooLarge(path: string, bytes: number, maxBytes: number): Unread {
  return { path, reason: 'too-large', bytes, maxBytes };
}

// The file's text (UTF-8), or a GpuLabError whose details are an Unread.
export async function readRegularFile(path: string, options: ReadOptions): Promise<RegularFile> {
  const { maxBytes, what } = options;
  const fail = (unread: Unread): never => {
    throw refused(what, unread);
  };
  const errno = (err: unknown): never => {
    const cause = (err as NodeJS.ErrnoException).code ?? 'EIO';
    return fail({ path, reason: cause === 'ENOENT' ? 'missing' : cause === 'ELOOP' ? 'not-a-regular-file' : 'unreadable', ...(cause === 'ELOOP' ? { kind: 'symlink' as const } : { cause }) });
  };
  const looked = await (options.followLinks ? stat(path) : lstat(path)).catch(errno);
  const kind = fileKind(looked);
  if (kind !== null) fail({ path, reason: 'not-a-regular-file', kind });
  if (looked.size > maxBytes) fail(tooLarge(path, looked.size, maxBytes));
  const flags = constants.O_RDONLY | constants.O_NONBLOCK | (options.followLinks ? 0 : constants.O_NOFOLLOW);
  const file = await open(path, flags).catch(errno);
  try {
    const stats = await file.stat();
    const now = fileKind(stats);
    if (now !== null || stats.ino !== looked.ino || stats.dev !== looked.dev) fail({ path, reason: 'not-a-regular-file', kind: now ?? 'other' });
    if (stats.size > maxBytes) fail(tooLarge(path, stats.size, maxBytes));
    // One byte past the cap tells a file that grew since it was looked at from one that ends there.
    const buffer = Buffer.alloc(Math.min(stats.size, maxBytes) + 1);
    let filled = 0;
    for (;;) {
      const { bytesRead } = await file.read(buffer, filled, buffer.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
      if (filled === buffer.length) {
        if (filled > maxBytes) fail(tooLarge(path, filled, maxBytes));
        break;
      }
    }
    return { text: buffer.subarray(0, filled).toString('utf8'), stats };
  } finally {
    await file.close();
  }
}

// The Unread a GpuLabError from readRegularFile carries, or null for any other error.
export function unreadOf(err: unknown): Unread | null {
  if (!(err instanceof GpuLabError)) return null;
  const reason = err.details?.reason;
  return reason === 'missing' || reason === 'not-a-regular-file' || reason === 'too-large' || reason === 'unreadable' ? (err.details as unknown as Unread) : null;
}

// What a JSON.parse error says of such a file, without V8's quote of the text around the fault: that text may be any
// file a hard link leads to.
export function notJson(err: unknown): string {
  const at = /position (\d+)/.exec(err instanceof Error ? err.message : '');
  return at ? `not JSON (at byte ${at[1] ?? ''})` : 'not JSON';
}
