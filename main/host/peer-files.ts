// The files a Python peer's inputs cross in (ops/peer.ts), in /dev/shm where it has room (memory, not disk), else
// the temporary folder. Several peer series take the same inputs one after the other (the transfer lab's four
// PyTorch copies of each size, the break-even lab's PyTorch CPU, with copies and resident at each size), and each
// wrote them again, a gigabyte read out of the engine's buffer and written to a file for every one: so an input's
// file is kept, by what fills it (seed, stream, type, length, range), for the peer points after it, up to
// KEEP_BYTES_MAX in all (and a quarter of the free memory), the oldest let go first, and all of them once no peer point has come for IDLE_MS. The worker
// keeps the arrays it read from the files kept (python-worker's `release` with `keep`). Each host's folder is named
// by its pid: one left by a host that died is removed by the next.
import { lstatSync, readdirSync, rmSync } from 'node:fs';
import { mkdtemp, rm, statfs, writeFile } from 'node:fs/promises';
import { freemem, tmpdir } from 'node:os';
import { join } from 'node:path';

import type { PeerArray } from '../common/peer-protocol.ts';
import { DTYPE_BYTES } from '../../native/index.ts';
import type { DType, ElementBuffer } from '../../native/index.ts';

export const KEEP_BYTES_MAX = 2 * 1024 ** 3;
export const IDLE_MS = 5000;
const PREFIX = 'gpu-lab-peer-';

const PEER_DTYPE: Record<DType, PeerArray['dtype']> = { fp64: 'float64', fp32: 'float32', fp16: 'float16', bf16: 'bfloat16', int8: 'int8' };

export const peerDtype = (dtype: DType): PeerArray['dtype'] => PEER_DTYPE[dtype];

export interface PeerInput {
  // What fills it: equal keys, equal bytes (the one seeding rule, MeasurementBackend.input).
  key: string;
  buffer: ElementBuffer;
}

interface Kept {
  array: PeerArray;
  bytes: number;
  usedAt: number;
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

// The files of `inputs`, those kept reused and the others written; then what is kept trimmed to `keepBytes` (never
// these inputs' own).
export async function inputFiles(inputs: readonly PeerInput[], outputBytes: number, keepBytes = Math.min(KEEP_BYTES_MAX, freemem() / 4)): Promise<PeerArray[]> {
  const bytesOf = (b: ElementBuffer): number => b.length * DTYPE_BYTES[b.dtype];
  const missing = inputs.filter((i) => !kept.has(i.key));
  const dir = await folderFor(missing.reduce((sum, i) => sum + bytesOf(i.buffer), outputBytes));
  const now = performance.now();
  const arrays: PeerArray[] = [];
  for (const input of inputs) {
    let k = kept.get(input.key);
    if (!k) {
      const path = join(dir, `in-${kept.size}-${Math.random().toString(36).slice(2, 10)}.bin`);
      const values = input.buffer.read();
      await writeFile(path, new Uint8Array(values.buffer, values.byteOffset, values.byteLength), { flag: 'wx', mode: 0o600 });
      k = { array: { path, dtype: peerDtype(input.buffer.dtype), length: values.length }, bytes: values.byteLength, usedAt: now };
      kept.set(input.key, k);
    }
    k.usedAt = now;
    arrays.push(k.array);
  }
  const mine = new Set(inputs.map((i) => i.key));
  for (const [key, k] of [...kept.entries()].sort((x, y) => x[1].usedAt - y[1].usedAt)) {
    if (keptBytes() <= keepBytes) break;
    if (mine.has(key)) continue;
    kept.delete(key);
    await rm(k.array.path, { force: true });
  }
  return arrays;
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

// Every kept file let go, and the folder: at once for the points after (a point that starts meanwhile writes its
// inputs anew, in a folder of its own), the files removed after.
export function forgetInputs(): Promise<void> {
  const old = folder;
  folder = null;
  kept.clear();
  return old ? rm(old.dir, { recursive: true, force: true }) : Promise.resolve();
}
