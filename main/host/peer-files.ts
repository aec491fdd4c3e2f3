// The files a Python peer's inputs cross in (ops/peer.ts), in /dev/shm where it has room (memory, not disk), else
// the temporary folder. Several peer series take the same inputs one after the other (the transfer lab's four
// PyTorch copies of each size, the break-even lab's PyTorch CPU, with copies and resident at each size), and each
// made them again, a gigabyte filled with the seed's values, read out of the buffer and written to a file for every
// one: so an input is kept, its host buffer (which the check reads) and its file (which the worker reads), by what
// fills it (seed, stream, type, length, range), for the peer points after it, up to KEEP_BYTES_MAX in all, buffers
// and files together (and half the free memory), the oldest let go first, and all of them when the run ends
// (ops/peer.ts peerRunEnded), or once no peer point has come for IDLE_MS outside a run. The worker keeps the arrays it read from the files kept (python-worker's `release` with `keep`).
// Each host's folder is named by its pid: one left by a host that died is removed by the next.
import { lstatSync, readdirSync, rmSync } from 'node:fs';
import { mkdtemp, open, rm, statfs } from 'node:fs/promises';
import { freemem, tmpdir } from 'node:os';
import { join } from 'node:path';

import type { PeerArray } from '../common/peer-protocol.ts';
import { DTYPE_BYTES } from '../../native/index.ts';
import type { ElementBuffer } from '../../native/index.ts';

export const KEEP_BYTES_MAX = 4 * 1024 ** 3;
export const IDLE_MS = 5000;
const PREFIX = 'gpu-lab-peer-';

export interface PeerInput {
  // What fills it: equal keys, equal bytes (the one seeding rule, MeasurementBackend.input).
  key: string;
  // The input in a host buffer, filled; called only where none is kept under the key.
  make: () => Promise<ElementBuffer>;
}

interface Kept {
  array: PeerArray;
  buffer: ElementBuffer;
  // The buffer's and the file's together.
  bytes: number;
  usedAt: number;
  // Points measuring on it now; a kept input let go meanwhile frees its buffer when the last of them is done.
  users: number;
  gone: boolean;
}

// Lets go of a kept input's buffer, now or when the points on it are done.
function letGo(k: Kept): void {
  k.gone = true;
  if (k.users === 0) k.buffer.free();
}

let folder: { dir: string; base: string } | null = null;
const kept = new Map<string, Kept>();
let outputs = 0;
let exitHook = false;

const keptBytes = (): number => [...kept.values()].reduce((sum, k) => sum + k.bytes, 0);

// Folders of hosts that are gone (named by a pid no process has, and ours): their files would hold memory for good.
function sweep(base: string): void {
  const uid = process.getuid?.();
  for (const name of (() => {
    try {
      return readdirSync(base);
    } catch {
      return [];
    }
  })()) {
    const pid = Number(/^gpu-lab-peer-(\d+)-/.exec(name)?.[1] ?? Number.NaN);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      process.kill(pid, 0);
      continue;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ESRCH') continue;
    }
    try {
      const st = lstatSync(join(base, name));
      if (st.isDirectory() && (uid === undefined || st.uid === uid)) rmSync(join(base, name), { recursive: true, force: true });
    } catch {
      // Gone already, or not ours to remove.
    }
  }
}

async function base(bytes: number): Promise<string> {
  const shm = await statfs('/dev/shm').catch(() => null);
  return shm && shm.bavail * shm.bsize > 2 * bytes ? '/dev/shm' : tmpdir();
}

// This host's folder, in the place with room for `bytes` more (moved, its kept files let go, where it has not).
async function folderFor(bytes: number): Promise<string> {
  const where = await base(bytes + keptBytes());
  if (folder && folder.base === where) return folder.dir;
  if (folder) await forgetInputs();
  sweep(where);
  const dir = await mkdtemp(join(where, `${PREFIX}${process.pid}-`));
  folder = { dir, base: where };
  if (!exitHook) {
    exitHook = true;
    process.once('exit', () => {
      if (folder) rmSync(folder.dir, { recursive: true, force: true });
    });
  }
  return dir;
}

// A host buffer's bytes in a new file, a piece at a time: a whole read first copied a gigabyte into a fresh
// JavaScript buffer, every page of it touched for the first time, where a piece of WRITE_PIECE_BYTES reuses memory
// already mapped (on this 2-core machine 200 MB took 0.54 s read whole and written, 0.27 s in 1 MiB pieces).
const WRITE_PIECE_BYTES = 1 << 20;

async function writeBufferFile(path: string, buffer: ElementBuffer): Promise<void> {
  const file = await open(path, 'wx', 0o600);
  try {
    const piece = Math.max(1, Math.floor(WRITE_PIECE_BYTES / DTYPE_BYTES[buffer.dtype]));
    for (let start = 0; start < buffer.length; start += piece) {
      const values = buffer.read(start, Math.min(piece, buffer.length - start));
      const bytes = new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
      for (let done = 0; done < bytes.byteLength; ) done += (await file.write(bytes, done)).bytesWritten;
    }
  } finally {
    await file.close();
  }
}

// The files and the buffers of `inputs`, those kept reused and the others made and written; then what is kept trimmed
// to `keepBytes` (never these inputs' own). The buffers stay the kept inputs', never freed by the caller, who calls
// `done` when its point no longer reads them.
export async function inputFiles(inputs: readonly PeerInput[], outputBytes: number, keepBytes = Math.min(KEEP_BYTES_MAX, freemem() / 2)): Promise<{ arrays: PeerArray[]; buffers: ElementBuffer[]; done: () => void }> {
  const bytesOf = (b: ElementBuffer): number => b.length * DTYPE_BYTES[b.dtype];
  const made = new Map<string, ElementBuffer>();
  for (const input of inputs) if (!kept.has(input.key) && !made.has(input.key)) made.set(input.key, await input.make());
  const dir = await folderFor([...made.values()].reduce((sum, b) => sum + bytesOf(b), outputBytes));
  const now = performance.now();
  const arrays: PeerArray[] = [];
  const buffers: ElementBuffer[] = [];
  const used: Kept[] = [];
  for (const input of inputs) {
    let k = kept.get(input.key);
    if (!k) {
      // Made above, or made now where moving the folder let go of the kept one meanwhile.
      const buffer = made.get(input.key) ?? (await input.make());
      made.delete(input.key);
      const path = join(dir, `in-${kept.size}-${Math.random().toString(36).slice(2, 10)}.bin`);
      await writeBufferFile(path, buffer);
      k = { array: { path, dtype: buffer.dtype, length: buffer.length }, buffer, bytes: 2 * bytesOf(buffer), usedAt: now, users: 0, gone: false };
      kept.set(input.key, k);
    }
    k.usedAt = now;
    arrays.push(k.array);
    buffers.push(k.buffer);
    used.push(k);
  }
  for (const b of made.values()) b.free();
  for (const k of used) k.users++;
  const mine = new Set(inputs.map((i) => i.key));
  for (const [key, k] of [...kept.entries()].sort((x, y) => x[1].usedAt - y[1].usedAt)) {
    if (keptBytes() <= keepBytes) break;
    if (mine.has(key) || k.users > 0) continue;
    kept.delete(key);
    letGo(k);
    await rm(k.array.path, { force: true });
  }
  let released = false;
  const done = (): void => {
    if (released) return;
    released = true;
    for (const k of used) if (--k.users === 0 && k.gone) k.buffer.free();
  };
  return { arrays, buffers, done };
}

// A fresh path for a point's output, in the same folder.
export function outputFile(): string {
  if (!folder) throw new Error('outputFile before inputFiles');
  return join(folder.dir, `out-${++outputs}.bin`);
}

// The paths of the files kept, for the worker to keep its arrays of.
export function keptPaths(): string[] {
  return [...kept.values()].map((k) => k.array.path);
}

// Every kept input let go, and the folder: at once for the points after (a point that starts meanwhile makes its
// inputs anew, in a folder of its own), the files removed after.
export function forgetInputs(): Promise<void> {
  const old = folder;
  folder = null;
  for (const k of kept.values()) letGo(k);
  kept.clear();
  return old ? rm(old.dir, { recursive: true, force: true }) : Promise.resolve();
}
