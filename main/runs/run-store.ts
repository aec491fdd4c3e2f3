// Run records on disk: one JSON file per run in <data dir>/runs, written atomically (a temporary file renamed over
// the old one, so a crash mid-write leaves the previous version or nothing, never half a record). A file that is not a
// regular file, too large, does not parse or does not match the schema is skipped with a warning: one bad file must
// not hide the others (regular-file.ts says what is opened).
//
// Reading writes nothing, but for one thing: a file whose run says it is queued or running while its runner, on this
// machine, is gone is marked interrupted, in that very file (run-liveness.ts). A sync tool may leave two files for
// one run ("X.json" and "X (conflicted copy).json"): the completed one is shown (else the one with more points, else
// the one written last), the other is named in a warning, and neither is changed.
import { readdir, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';

import { GpuLabError } from '../common/errors.ts';
import type { RunRecord, RunSummary } from '../common/run-record.ts';
import { ensureFolder, writeFileAtomic } from './atomic-write.ts';
import { withCurrentFindings } from './current-findings.ts';
import { readStoredRecord } from './stored-record.ts';
import { MAX_RECORD_BYTES, notJson, readRegularFile, unreadOf } from './regular-file.ts';
import { interruptedRun, runnerState } from './run-liveness.ts';
import { runSummary } from './run-summary.ts';

const RUN_ID = /^[A-Za-z0-9._-]{1,120}$/;

const RECORD_SUFFIX = '.json';

export interface RunStoreOptions {
  warn?: (message: string) => void;
  // false: a store only read (the CLI's `runs`, `report`) never creates its folder; a missing one holds no runs.
  create?: boolean;
}

// A record as read from one file.
interface StoredFile {
  path: string;
  record: RunRecord;
  modifiedMs: number;
  // The file's JSON as written, before the schema read it.
  json: unknown;
}

// Which of several files holding one run is shown: completed first, then more points, then the later written; the
// file name last, so that the same folder always gives the same answer.
function shownFirst(a: StoredFile, b: StoredFile): number {
  const completed = Number(b.record.status === 'completed') - Number(a.record.status === 'completed');
  if (completed !== 0) return completed;
  if (a.record.points.length !== b.record.points.length) return b.record.points.length - a.record.points.length;
  if (a.modifiedMs !== b.modifiedMs) return b.modifiedMs - a.modifiedMs;
  return basename(a.path).localeCompare(basename(b.path));
}

export class RunStore {
  readonly dir: string;
  private readonly warn: (message: string) => void;

  constructor(dataDir: string, options: RunStoreOptions = {}) {
    this.dir = join(dataDir, 'runs');
    this.warn = options.warn ?? ((m) => process.stderr.write(`gpu-lab: ${m}\n`));
    if (options.create !== false) ensureFolder(this.dir, 'the runs folder');
  }

  private pathOf(id: string): string {
    if (!RUN_ID.test(id)) throw new GpuLabError('INVALID_ARGUMENT', `"${id.slice(0, 200)}" is not a run id (1 to 120 letters, digits, . _ -)`, { field: 'runId', value: id.slice(0, 200) });
    return join(this.dir, `${id}${RECORD_SUFFIX}`);
  }

  // `durable: false` skips the flush to disk: the rename still makes the write atomic for a crashing process, and
  // a run saved after every point should not wait for the disk each time. Final records are flushed.
  async save(record: RunRecord, options: { durable?: boolean } = {}): Promise<void> {
    await writeFileAtomic(this.pathOf(record.id), JSON.stringify(record), { what: `run ${record.id}`, ...options });
  }

  // The record of one file, as this version reads it, or null (with a warning) when it is not a run record this
  // version reads.
  private async read(path: string): Promise<StoredFile | null> {
    let text: string;
    let modifiedMs: number;
    try {
      const file = await readRegularFile(path, { maxBytes: MAX_RECORD_BYTES, what: 'run file' });
      text = file.text;
      modifiedMs = file.stats.mtimeMs;
    } catch (err) {
      if (unreadOf(err)?.reason !== 'missing') this.warn(`skipping ${(err as Error).message.replace(/^Not reading the /, '')}`);
      return null;
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (err) {
      this.warn(`skipping corrupt run file ${path}: ${notJson(err)}`);
      return null;
    }
    const read = readStoredRecord(json);
    if (!read.ok) {
      this.warn(`skipping run file ${path}: ${read.message}`);
      return null;
    }
    return { path, record: read.record, modifiedMs, json };
  }

  // The run of a group of files holding one id, as a reader sees it. A run whose runner on this machine is gone is
  // shown interrupted; the file is marked so too, and only that file, when it is the run's only one.
  private async settle(files: StoredFile[]): Promise<RunRecord> {
    const [shown, ...others] = [...files].sort(shownFirst);
    if (!shown) throw new Error('settle() needs a file');
    if (others.length) {
      this.warn(`run ${shown.record.id} is held by ${files.length} files: showing ${shown.path} (${shown.record.status}, ${shown.record.points.length} point(s)), not ${others.map((o) => `${o.path} (${o.record.status}, ${o.record.points.length} point(s))`).join(', ')}; ${others.length === 1 ? 'neither file was' : 'none of them was'} changed`);
    }
    if (runnerState(shown.record) !== 'gone') return shown.record;
    const interrupted = interruptedRun(shown.record);
    if (others.length === 0) {
      await writeFileAtomic(shown.path, JSON.stringify(interrupted), { what: `run ${interrupted.id}` }).catch((err: unknown) => this.warn(`could not mark run ${interrupted.id} interrupted in ${shown.path}: ${(err as Error).message}`));
    }
    return interrupted;
  }

  private async names(): Promise<string[]> {
    const names = await readdir(this.dir).catch((err: NodeJS.ErrnoException) => (err.code === 'ENOENT' ? [] : Promise.reject(err)));
    return names.filter((n) => n.endsWith(RECORD_SUFFIX)).sort();
  }

  // The files of `names`, by the id of the run each holds.
  private async byRun(names: readonly string[]): Promise<Map<string, StoredFile[]>> {
    const files = await Promise.all(names.map((n) => this.read(join(this.dir, n))));
    const runs = new Map<string, StoredFile[]>();
    for (const file of files) if (file) runs.set(file.record.id, [...(runs.get(file.record.id) ?? []), file]);
    return runs;
  }

  // Every run whole, one per id, as a reader sees it: `gpu-lab batch status` picks a job's runs by their Slurm ids.
  async records(): Promise<RunRecord[]> {
    const runs = await this.byRun(await this.names());
    return Promise.all([...runs.values()].map((files) => this.settle(files)));
  }

  // Each readable record's JSON as its file holds it, with its run's id, read as records() reads them but settling
  // nothing: an import compares what it brings with what is here (run-import.ts).
  async storedJson(visit: (id: string, json: unknown) => void): Promise<void> {
    for (const files of (await this.byRun(await this.names())).values()) for (const file of files) visit(file.record.id, file.json);
  }

  async list(): Promise<RunSummary[]> {
    return (await this.records()).map(runSummary).sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  }

  // A run by its id: its own file, and any copy a sync tool made beside it (whose name begins with the id).
  async get(id: string): Promise<RunRecord> {
    const own = basename(this.pathOf(id));
    const files = (await this.byRun((await this.names()).filter((n) => n === own || n.startsWith(id)))).get(id);
    if (!files) throw new GpuLabError('NOT_FOUND', `No readable run "${id}" in ${this.dir}`, { runId: id });
    // Every reader (the app, the CLI, the report) gets its findings from the current analysis (current-findings.ts).
    return withCurrentFindings(await this.settle(files));
  }

  // A record its own runner takes back (lab-runner.ts: written once to prove the folder takes it, before the run holds
  // its devices); unlike delete(), never refused for a live runner, which is the caller.
  async discard(id: string): Promise<void> {
    await rm(this.pathOf(id), { force: true });
  }

  // Refused while the run is being measured on this machine (its runner alive): the runner would write it back.
  async delete(id: string): Promise<void> {
    const path = this.pathOf(id);
    const stored = await this.read(path);
    if (stored && runnerState(stored.record) === 'alive') {
      const { runnerPid } = stored.record.environment;
      throw new GpuLabError('INVALID_ARGUMENT', `Run ${id} is being measured on this machine (pid ${runnerPid ?? '?'}): cancel it, or let it finish, before deleting it`, {
        runId: id,
        reason: 'run-in-progress',
        pid: runnerPid ?? null,
      });
    }
    try {
      await rm(path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new GpuLabError('NOT_FOUND', `No run "${id}" in ${this.dir}`, { runId: id });
      throw err;
    }
  }
}
