// One run at a time per device per machine (ARCHITECTURE.md, "Processes"): two measurements sharing a GPU or the CPU
// halve each other's rates and would both read as fine. A lock is a file in a folder of the system's temporary
// folder, so that the app (whose data folder is Electron's), the command line and other users of a shared server all
// see it: <tmp>/gpu-lab-locks/<device>.lock, holding who took it (user, pid, the process's start time, what it runs,
// since when).
//
// A lock is written whole before it exists under its name: the holder is written to a temporary file, which is then
// hard-linked to the lock's name, and link() fails if the name is taken, so a reader never sees half a lock. A lock
// whose process is gone (no such pid, or a pid reused by a process with another start time) is stale and is taken
// over; two takers of the same stale lock are kept apart by a guard file taken the same way, so that neither removes
// the lock the other has just made. A process that exits holding locks removes them on its way out; one that is
// killed leaves them stale.
import { randomBytes } from 'node:crypto';
import { lstatSync, readFileSync, unlinkSync } from 'node:fs';
import { chmod, link, lstat, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { hostname, tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

import type { DeviceList } from '../common/devices.ts';
import { GpuLabError } from '../common/errors.ts';
import { msg, WAITING_MESSAGE_KEY, type Message } from '../common/pure/message.ts';
import { processAlive, processStartTicks } from './process-identity.ts';

// What holds a device: a lab run, a kernel run of the playground, the bench, or the Python peers.
export type LockUse = 'lab' | 'kernel' | 'bench' | 'peers';

export interface LockHolder {
  user: string;
  pid: number;
  startTicks: number | null;
  host: string;
  use: LockUse;
  // The lab, the exercise, or what the bench or the peers measure.
  name: string;
  device: string;
  since: string;
  // Tells this holder's lock from a later one of the same process.
  token: string;
}

export interface AcquireOptions {
  // false: a device in use is refused at once (DEVICE_BUSY) instead of waited for.
  wait?: boolean;
  signal?: AbortSignal;
  // Called when the device is found in use, once per holder waited for.
  onWait?: (holder: LockHolder) => void;
}

export interface DeviceLease {
  readonly devices: readonly string[];
  release(): Promise<void>;
}

// The CPU, a CUDA device, or a WebGPU adapter by its lock key (common/webgpu-adapters.ts adapterLockKey).
const DEVICE = /^(cpu|cuda:\d{1,3}|webgpu:[a-z0-9-]{1,56})$/;
// How often a waiting run looks at the lock again.
const POLL_MS = 250;
// A guard older than this was left by a process that died while taking over a stale lock (a few file operations).
const STALE_GUARD_MS = 10_000;

// The locks a run on `devices` takes. A WebGPU adapter is locked by its name (lockKey), the same whichever backend
// or list position it has, so that two processes never measure on it at once; an NVIDIA adapter cannot be told apart
// from the CUDA devices (WebGPU gives no UUID or PCI address), so it takes every CUDA device's lock too; a software
// adapter is the CPU, and takes the CPU's.
export function lockNames(devices: readonly string[], list: DeviceList | null | undefined): string[] {
  const all = list?.devices ?? [];
  return [
    ...new Set(
      devices.flatMap((id) => {
        const d = all.find((x) => x.id === id);
        if (d?.kind !== 'webgpu') return [id];
        const key = typeof d.details.lockKey === 'string' ? d.details.lockKey : id;
        const cuda = d.details.nvidia === true ? all.filter((x) => x.kind === 'cuda').map((x) => x.id) : [];
        return [key, ...cuda, ...(d.details.software === true ? ['cpu'] : [])];
      }),
    ),
  ];
}

// GPU_LAB_LOCK_DIR, else gpu-lab-locks in the system's temporary folder.
export function defaultLockDir(): string {
  return process.env.GPU_LAB_LOCK_DIR || join(tmpdir(), 'gpu-lab-locks');
}

function userName(): string {
  try {
    return userInfo().username;
  } catch {
    return `uid ${process.getuid?.() ?? '?'}`;
  }
}

function lockFile(dir: string, device: string): string {
  return join(dir, `${device.replace(':', '-')}.lock`);
}

function parseHolder(text: string): LockHolder | null {
  try {
    const h = JSON.parse(text) as Partial<LockHolder>;
    if (typeof h.pid !== 'number' || !Number.isInteger(h.pid) || h.pid <= 0) return null;
    return {
      user: String(h.user ?? '?'),
      pid: h.pid,
      startTicks: typeof h.startTicks === 'number' ? h.startTicks : null,
      host: String(h.host ?? ''),
      use: (['lab', 'kernel', 'bench', 'peers'] as const).find((u) => u === h.use) ?? 'lab',
      name: String(h.name ?? '?'),
      device: String(h.device ?? '?'),
      since: String(h.since ?? ''),
      token: String(h.token ?? ''),
    };
  } catch {
    return null;
  }
}

// Whether a lock's holder still runs: a lock written on another machine sharing this folder cannot be judged, and
// counts as held.
function holderAlive(h: LockHolder): boolean {
  if (h.host && h.host !== hostname()) return true;
  return processAlive(h.pid, h.startTicks);
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new GpuLabError('CANCELLED', 'Cancelled while waiting for the device'));
    const done = (): void => {
      signal?.removeEventListener('abort', aborted);
      resolve();
    };
    const timer = setTimeout(done, ms);
    const aborted = (): void => {
      clearTimeout(timer);
      reject(new GpuLabError('CANCELLED', 'Cancelled while waiting for the device'));
    };
    signal?.addEventListener('abort', aborted, { once: true });
  });
}

// What a run waiting for a device says, in the reader's language when shown.
export function waitingMessage(h: LockHolder): Message {
  return msg(WAITING_MESSAGE_KEY, { device: h.device, user: h.user, pid: h.pid, what: msg(`common.run.holder.${h.use}`, { name: h.name }), since: h.since });
}

export function holderText(h: LockHolder): string {
  const what = { lab: `the ${h.name} lab`, kernel: `a kernel run of ${h.name}`, bench: 'the bench', peers: `the peers (${h.name})` }[h.use];
  return `${h.user} (pid ${h.pid}${h.host && h.host !== hostname() ? ` on ${h.host}` : ''}) runs ${what} there since ${h.since}`;
}

// Locks held by this process, removed if it exits holding them (a crash or SIGKILL leaves them stale instead).
const held = new Map<string, string>();
let exitHookSet = false;
function removeHeldOnExit(): void {
  for (const [path, token] of held) {
    try {
      // Only a lock that is still this process's: read back by its token.
      if (lstatSync(path).isFile() && parseHolder(readFileSync(path, 'utf8'))?.token === token) unlinkSync(path);
    } catch {
      // Gone already.
    }
  }
}
export class DeviceLocks {
  readonly dir: string;
  private readonly pollMs: number;
  private readonly onWait: ((holder: LockHolder) => void) | undefined;

  // `onWait`: told of every wait whose acquire() names no listener of its own (a shell's one line on a terminal).
  constructor(options: { dir?: string | undefined; pollMs?: number; onWait?: (holder: LockHolder) => void } = {}) {
    this.dir = options.dir ?? defaultLockDir();
    this.pollMs = options.pollMs ?? POLL_MS;
    this.onWait = options.onWait;
  }

  // Takes every device of `devices` (in one order for every process, so that two runs wanting the same two devices
  // never hold one each), waiting for each while another process holds it, or refusing at once with wait: false.
  async acquire(devices: readonly string[], use: LockUse, name: string, options: AcquireOptions = {}): Promise<DeviceLease> {
    const wanted = [...new Set(devices)].sort((a, b) => (a === 'cpu' ? -1 : b === 'cpu' ? 1 : a.localeCompare(b, 'en', { numeric: true })));
    for (const d of wanted) if (!DEVICE.test(d)) throw new GpuLabError('INVALID_ARGUMENT', `A device lock is for "cpu", "cuda:N" or a WebGPU adapter's key, not "${d}"`, { device: d });
    await this.ensureDir();
    const taken: { path: string; token: string }[] = [];
    const lease: DeviceLease = {
      devices: wanted,
      release: async () => {
        for (const { path, token } of taken.splice(0).reverse()) await this.releaseOne(path, token);
      },
    };
    try {
      for (const device of wanted) taken.push(await this.acquireOne(device, use, name, options));
    } catch (err) {
      await lease.release();
      throw err;
    }
    return lease;
  }

  private async ensureDir(): Promise<void> {
    try {
      await mkdir(this.dir, { mode: 0o777 });
      // Every user of the machine takes and takes over locks here: the mode is set past the umask.
      await chmod(this.dir, 0o777).catch(() => undefined);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw this.dirError(err);
    }
    const st = await lstat(this.dir).catch((err: unknown) => {
      throw this.dirError(err);
    });
    // A symbolic link here could send the locks anywhere another user chose.
    if (!st.isDirectory() || st.isSymbolicLink()) {
      throw new GpuLabError('INVALID_ARGUMENT', `The device-lock folder ${this.dir} is not a folder (set GPU_LAB_LOCK_DIR to one that is)`, { path: this.dir });
    }
  }

  private dirError(err: unknown): GpuLabError {
    const e = err as NodeJS.ErrnoException;
    return new GpuLabError('WRITE_FAILED', `The device-lock folder ${this.dir} cannot be used (${e.code ?? e.message}); set GPU_LAB_LOCK_DIR to a folder every user of GPU Lab can write`, {
      path: this.dir,
      ...(e.code ? { cause: e.code } : {}),
    });
  }

  private async acquireOne(device: string, use: LockUse, name: string, options: AcquireOptions): Promise<{ path: string; token: string }> {
    const path = lockFile(this.dir, device);
    const me: LockHolder = {
      user: userName(),
      pid: process.pid,
      startTicks: processStartTicks(process.pid),
      host: hostname(),
      use,
      name,
      device,
      since: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
      token: randomBytes(8).toString('hex'),
    };
    const text = `${JSON.stringify(me)}\n`;
    let waitedFor = '';
    for (;;) {
      if (options.signal?.aborted) throw new GpuLabError('CANCELLED', 'Cancelled while waiting for the device');
      if (await this.linkNew(path, text)) {
        held.set(path, me.token);
        if (!exitHookSet) {
          exitHookSet = true;
          process.on('exit', removeHeldOnExit);
        }
        return { path, token: me.token };
      }
      const current = await readFile(path, 'utf8').catch(() => null);
      // Released between the link and the read: try again at once.
      if (current === null) continue;
      const holder = parseHolder(current);
      if (!holder || !holderAlive(holder)) {
        await this.takeOver(path, current, holder);
        continue;
      }
      if (options.wait === false) {
        throw new GpuLabError('DEVICE_BUSY', `${device} is in use: ${holderText(holder)}`, { device, heldBy: `${holder.user} (pid ${holder.pid})`, use: holder.use, name: holder.name, since: holder.since });
      }
      if (waitedFor !== holder.token) {
        waitedFor = holder.token;
        (options.onWait ?? this.onWait)?.(holder);
      }
      await sleep(this.pollMs, options.signal);
    }
  }

  // Writes `text` to a new temporary file and links it to `path`: true if it is the lock now, false if the name was
  // taken.
  private async linkNew(path: string, text: string): Promise<boolean> {
    const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      await writeFile(temp, text, { flag: 'wx', mode: 0o644 });
    } catch (err) {
      throw this.dirError(err);
    }
    try {
      await link(temp, path);
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw this.dirError(err);
    } finally {
      await unlink(temp).catch(() => undefined);
    }
  }

  // Removes a stale lock, if it is still the one read: under a guard, so that a second taker that read the same stale
  // lock cannot remove the lock the first has just made.
  private async takeOver(path: string, staleText: string, stale: LockHolder | null): Promise<void> {
    const guard = `${path}.takeover`;
    if (!(await this.linkNew(guard, `${process.pid}\n`))) {
      const age = await lstat(guard).then(
        (st) => Date.now() - st.mtimeMs,
        () => 0,
      );
      if (age > STALE_GUARD_MS) await unlink(guard).catch(() => undefined);
      else await sleep(20, undefined);
      return;
    }
    try {
      const now = await readFile(path, 'utf8').catch(() => null);
      if (now !== staleText) return;
      await unlink(path).catch((err: unknown) => {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'ENOENT') return;
        const who = stale ? `${stale.user}'s (pid ${stale.pid}, no longer running)` : 'an unreadable one';
        throw new GpuLabError('DEVICE_BUSY', `The lock ${path} is ${who} and cannot be removed (${code ?? 'error'}): remove it, or set GPU_LAB_LOCK_DIR to another folder`, {
          path,
          ...(code ? { cause: code } : {}),
        });
      });
    } finally {
      await unlink(guard).catch(() => undefined);
    }
  }

  private async releaseOne(path: string, token: string): Promise<void> {
    held.delete(path);
    const text = await readFile(path, 'utf8').catch(() => null);
    // Taken over meanwhile (this process was thought gone): that lock is another's now.
    if (text === null || parseHolder(text)?.token !== token) return;
    await unlink(path).catch(() => undefined);
  }
}
