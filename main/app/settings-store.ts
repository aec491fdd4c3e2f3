// The desktop app's settings: one JSON file in the app's user-data folder (settings.json), today holding the Python
// interpreter the peers run on. Read once at start; a file that cannot be read or does not hold settings is never
// lost nor used: it is moved aside (settings.json.unreadable-<time>), the reason is logged, and the defaults apply.
// Written whole or not at all (a temporary file renamed over it, main/runs/atomic-write.ts): a full disk or a folder
// that cannot be written fails the change with the reason, and the setting stays what it was. Plain Node; the
// Electron main opens it (electron/main.ts), the tests use real files.
import { accessSync, constants, readFileSync, renameSync, statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';

import { GpuLabError } from '../common/errors.ts';
import { ensureFolder, writeFileAtomic } from '../runs/atomic-write.ts';

export const SETTINGS_FILE = 'settings.json';
// A path longer than this is no interpreter anyone chose (Linux's PATH_MAX).
const MAX_PATH = 4096;
const EXPECTED = 'an absolute path to an executable file, such as /usr/bin/python3 or /home/me/venv/bin/python';

export interface AppSettings {
  // The interpreter the Python peers run on; null: the default (GPU_LAB_PYTHON, else python3 from PATH).
  python: string | null;
}

export const DEFAULT_SETTINGS: AppSettings = { python: null };

// Why `value` is no interpreter to run, as a refusal naming the setting, the value and what is expected; null when
// it is one. Symbolic links are followed (a virtual environment's python is one).
export function pythonPathProblem(value: unknown): GpuLabError | null {
  const refuse = (why: string, reason: string): GpuLabError =>
    new GpuLabError('INVALID_ARGUMENT', `The setting "python" = ${shown(value)} is not allowed: expected ${EXPECTED}; ${why}`, {
      field: 'python',
      value: typeof value === 'string' ? value.slice(0, MAX_PATH) : typeof value,
      expected: EXPECTED,
      reason,
    });
  if (typeof value !== 'string') return refuse(`it is ${value === null ? 'null' : `a ${typeof value}`}, not a path`, 'not-a-path');
  if (value === '') return refuse('it is empty', 'empty');
  if (value.length > MAX_PATH) return refuse(`it is ${value.length} characters long, more than ${MAX_PATH}`, 'too-long');
  if (value.includes('\0')) return refuse('it holds a NUL character', 'not-a-path');
  if (!isAbsolute(value)) return refuse('it is a relative path, which would be read from wherever the app happened to start', 'relative');
  let stats;
  try {
    stats = statSync(value);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? '';
    if (code === 'ENOENT') return refuse('there is no file there', 'missing');
    if (code === 'ENOTDIR') return refuse('a part of the path is a file, not a folder', 'missing');
    return refuse(`it cannot be read (${code || (err as Error).message})`, 'unreadable');
  }
  if (stats.isDirectory()) return refuse('it is a folder', 'folder');
  if (!stats.isFile()) return refuse('it is not a regular file', 'not-a-file');
  try {
    accessSync(value, constants.X_OK);
  } catch {
    return refuse('the file is not executable (its mode has no x bit for this user)', 'not-executable');
  }
  return null;
}

function shown(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 300 ? `${value.slice(0, 300)}…` : value);
  return value === null ? 'null' : typeof value === 'object' ? `a value of type ${Array.isArray(value) ? 'array' : 'object'}` : String(value);
}

// The settings a file holds, with whatever else it names kept as it is (a later version's settings); an Error
// saying what is wrong otherwise.
function parseSettings(text: string): { settings: AppSettings; rest: Record<string, unknown> } {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new Error(`it is not JSON (${(err as Error).message})`, { cause: err });
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) throw new Error(`it holds ${Array.isArray(data) ? 'a list' : String(data === null ? 'null' : typeof data)}, not an object of settings`);
  const { python = null, ...rest } = data as Record<string, unknown>;
  if (python !== null && (typeof python !== 'string' || !isAbsolute(python) || python.length > MAX_PATH || python.includes('\0'))) {
    throw new Error(`"python" is ${shown(python)}, not null nor an absolute path`);
  }
  return { settings: { python }, rest };
}

const READ_WHY: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'it is a folder',
  EIO: 'the disk reported an input/output error',
};

export interface SettingsStoreOptions {
  // Where a problem with the file is said (the app's log).
  warn?: (message: string) => void;
  // The time in the name of a file moved aside (tests fix it).
  now?: () => Date;
}

export class SettingsStore {
  readonly dir: string;
  readonly path: string;
  private settings: AppSettings;
  private rest: Record<string, unknown>;
  // A file that could be neither read nor moved aside: it is written over only once it has been moved.
  private stuck: string | null = null;
  private readonly now: () => Date;
  // Changes one after another, each written before the next is checked.
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(dir: string, settings: AppSettings, rest: Record<string, unknown>, now: () => Date) {
    this.dir = dir;
    this.path = join(dir, SETTINGS_FILE);
    this.settings = settings;
    this.rest = rest;
    this.now = now;
  }

  // The settings in `dir`: those of its file, the defaults where there is none, or where it cannot be used (said
  // through `warn`, the file moved aside).
  static open(dir: string, options: SettingsStoreOptions = {}): SettingsStore {
    const warn = options.warn ?? ((message: string) => process.stderr.write(`${message}\n`));
    const now = options.now ?? (() => new Date());
    const path = join(dir, SETTINGS_FILE);
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? '';
      // No file, or no folder (a part of its path is a file: writing says so): nothing to lose.
      if (code === 'ENOENT' || code === 'ENOTDIR') return new SettingsStore(dir, { ...DEFAULT_SETTINGS }, {}, now);
      const store = new SettingsStore(dir, { ...DEFAULT_SETTINGS }, {}, now);
      store.setAside(`it cannot be read: ${READ_WHY[code] ?? (err as Error).message}${code ? ` (${code})` : ''}`, warn);
      return store;
    }
    try {
      const { settings, rest } = parseSettings(text);
      return new SettingsStore(dir, settings, rest, now);
    } catch (err) {
      const store = new SettingsStore(dir, { ...DEFAULT_SETTINGS }, {}, now);
      store.setAside(`it does not hold GPU Lab's settings: ${(err as Error).message}`, warn);
      return store;
    }
  }

  // Moves the file that could not be used aside, saying so; where it cannot be moved, remembers it.
  private setAside(why: string, warn: (message: string) => void): void {
    const aside = this.moveAside();
    const head = `gpu-lab: the settings file ${this.path} was not used, ${why}.`;
    const defaults = 'the default settings apply (the Python interpreter: GPU_LAB_PYTHON, else python3 from PATH)';
    if (aside.moved) warn(`${head} ${aside.path ? `It was kept as ${aside.path}` : 'It is gone now'}; ${defaults}.`);
    else {
      this.stuck = aside.reason;
      warn(`${head} It could not be moved aside either (${aside.reason}), so it is left as it is; ${defaults}, and a setting cannot be changed until it can be moved.`);
    }
  }

  private moveAside(): { moved: true; path: string | null } | { moved: false; reason: string } {
    const stamp = this.now().toISOString().replace(/[:.]/g, '-');
    const path = join(this.dir, `${SETTINGS_FILE}.unreadable-${stamp}`);
    try {
      renameSync(this.path, path);
      return { moved: true, path };
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? '';
      if (code === 'ENOENT') return { moved: true, path: null };
      return { moved: false, reason: `${READ_WHY[code] ?? (err as Error).message}${code ? ` (${code})` : ''}` };
    }
  }

  get(): AppSettings {
    return { ...this.settings };
  }

  // Sets the interpreter (null: the default), checked first, written before it is believed. Refusals:
  // INVALID_ARGUMENT naming the setting, the value and what is expected; a file that cannot be written (a full
  // disk: WRITE_FAILED) with its reason, the setting left as it was.
  setPython(path: string | null): Promise<AppSettings> {
    const change = this.queue.then(async () => {
      if (path !== null) {
        const problem = pythonPathProblem(path);
        if (problem) throw problem;
      }
      if (this.stuck !== null) {
        const aside = this.moveAside();
        if (!aside.moved) {
          throw new GpuLabError('WRITE_FAILED', `The settings were not saved: ${this.path} could not be read when the app started and cannot be moved aside (${aside.reason}); move or delete it, then try again`, { path: this.path, reason: 'unreadable-settings' });
        }
        this.stuck = null;
      }
      const next: AppSettings = { ...this.settings, python: path };
      ensureFolder(this.dir, 'the settings folder');
      await writeFileAtomic(this.path, `${JSON.stringify({ ...this.rest, ...next }, null, 2)}\n`, { what: 'the settings' });
      this.settings = next;
      return this.get();
    });
    this.queue = change.catch(() => undefined);
    return change;
  }
}
