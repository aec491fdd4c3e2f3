// The engine's seeded inputs in host memory (pageable or pinned), kept between points. Several series of a run take
// the same inputs one after the other (the transfer lab's sync and async copies of each size, the break-even lab's
// CPU and GPU-with-copies add and mul at each size, seeded by the size), and each filled them again: some 0.5 s a
// series for the transfer lab's and the break-even lab's gigabytes on the H200's host. A point's inputs come back
// here when it is done, by what filled them (the backend's key: place, seed's stream, type, length, range), and the
// next point that asks for the same key gets the buffer as it is, its values those a fill would write (no op writes
// into an input it was given; one that does asks for an input of its own, MeasurementBackend.ownInput). One point
// holds a kept input at a time: it is taken out while the point measures, and given back at its end.
// At most KEEP_BYTES_MAX (and an eighth of the machine's memory) is held, the oldest let go first, and all of it when
// the run ends (the runner says so: host-protocol's runEnded), or once no point has been open for KEEP_MS (a
// measurement asked outside a run: the bench, a script). A point in progress, however long, keeps them. A pinned input let go goes back to the pinned pool, and a point that
// needs pinned memory of its type and length takes a kept one before page-locking more.
import { totalmem } from 'node:os';

import type { DType, ElementBuffer } from '../../native/index.ts';
import { givePinned } from './pinned-pool.ts';

export const KEEP_BYTES_MAX = 4 * 1024 ** 3;
export const KEEP_MS = 10_000;

interface Kept {
  key: string;
  buffer: ElementBuffer;
}

// Oldest first.
const kept: Kept[] = [];
let idle: NodeJS.Timeout | null = null;

const keptBytes = (): number => kept.reduce((sum, k) => sum + k.buffer.byteLength, 0);

function letGo(buffer: ElementBuffer): void {
  if (buffer.location === 'pinned') givePinned(buffer);
  else buffer.free();
}

// The input kept under `key`, taken out for the caller's point; undefined where none is.
export function takeInput(key: string): ElementBuffer | undefined {
  const i = kept.findIndex((k) => k.key === key && !k.buffer.freed);
  return i >= 0 ? kept.splice(i, 1)[0]?.buffer : undefined;
}

// A kept pinned buffer of `dtype` and `length`, whatever filled it, taken out to be written anew (a point's output,
// or an input filled otherwise): page-locking a new one costs more than the fill it had.
export function takePinnedBuffer(dtype: DType, length: number): ElementBuffer | undefined {
  const i = kept.findIndex((k) => k.buffer.location === 'pinned' && k.buffer.dtype === dtype && k.buffer.length === length && !k.buffer.freed);
  return i >= 0 ? kept.splice(i, 1)[0]?.buffer : undefined;
}

const defaultKeepBytes = (): number => Math.min(KEEP_BYTES_MAX, totalmem() / 8);

// The oldest let go until at most `bytes` are kept.
function trimTo(bytes: number): void {
  while (kept.length > 0 && keptBytes() > bytes) {
    const oldest = kept.shift();
    if (oldest) letGo(oldest.buffer);
  }
}

// A point's input, filled under `key` and not written since, done with: kept for the next point that asks for it.
export function giveInput(key: string, buffer: ElementBuffer, keepBytes = defaultKeepBytes()): void {
  if (buffer.freed) return;
  kept.push({ key, buffer });
  trimTo(keepBytes);
}

// A point about to make `bytes` of inputs no kept one holds: the oldest let go until what is kept and what it makes
// fit in the bound together, so that a point of more than the bound runs with nothing kept beside it (what a run
// needs is what its largest point holds, main/runs/memory-check.ts, not that and the bound).
export function makeRoomFor(bytes: number, keepBytes = defaultKeepBytes()): void {
  trimTo(Math.max(0, keepBytes - bytes));
}

// Points measuring now: while one is, nothing kept times out.
let open = 0;

export function pointStarted(): void {
  open++;
  if (idle) clearTimeout(idle);
  idle = null;
}

// A point ended: once none is open, what is kept stays for KEEP_MS more.
export function pointEnded(): void {
  open = Math.max(0, open - 1);
  if (idle) clearTimeout(idle);
  idle = open === 0 && kept.length > 0 ? setTimeout(releaseInputs, KEEP_MS) : null;
  idle?.unref();
}

// A run ended: what it kept goes now, unless a point of another run is measuring (that run's end lets it go).
export function runEnded(): void {
  if (open === 0) releaseInputs();
}

// Every kept input let go.
export function releaseInputs(): void {
  if (idle) clearTimeout(idle);
  idle = null;
  for (const k of kept.splice(0)) letGo(k.buffer);
}

// The bytes kept now.
export function keptInputBytes(): number {
  return keptBytes();
}
