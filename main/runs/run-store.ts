// Run records on disk: one JSON file per run in <data dir>/runs, written atomically (a temporary file renamed over
// the old one, so a crash mid-write leaves the previous version or nothing, never half a record). A file that does
// not parse or does not match the schema is skipped with a warning: one bad file must not hide the others.
import { readFile, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';

import { GpuLabError } from '../common/errors.ts';
import { RUN_RECORD } from '../common/run-record.ts';
import type { RunRecord, RunSummary } from '../common/run-record.ts';
import { processAlive } from '../engine/process-identity.ts';
import { ensureFolder, writeFileAtomic } from './atomic-write.ts';
import { withCurrentFindings } from './current-findings.ts';
import { runSummary } from './run-summary.ts';

const RUN_ID = /^[A-Za-z0-9._-]{1,120}$/;

const RECORD_SUFFIX = '.json';

export interface RunStoreOptions {
  warn?: (message: string) => void;
  // false: a store only read (the CLI's `runs`, `report`) never creates its folder; a missing one holds no runs.
  create?: boolean;
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
    if (!RUN_ID.test(id)) throw new GpuLabError('NOT_FOUND', `"${id}" is not a run id (letters, digits, . _ - only)`, { runId: id });
    return join(this.dir, `${id}${RECORD_SUFFIX}`);
  }

  // `durable: false` skips the flush to disk: the rename still makes the write atomic for a crashing process, and
  // a run saved after every point should not wait for the disk each time. Final records are flushed.
  async save(record: RunRecord, options: { durable?: boolean } = {}): Promise<void> {
    await writeFileAtomic(this.pathOf(record.id), JSON.stringify(record), { what: `run ${record.id}`, ...options });
  }

  // The record, or null (with a warning) when the file is unreadable or not a run record of this version.
  private async load(path: string): Promise<RunRecord | null> {
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      this.warn(`skipping run file ${path}: ${(err as Error).message}`);
      return null;
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (err) {
      this.warn(`skipping corrupt run file ${path}: ${(err as Error).message}`);
      return null;
    }
    const parsed = RUN_RECORD.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      this.warn(`skipping run file ${path}: not a run record of schema version 1 (${issue ? `${issue.path.join('.')}: ${issue.message}` : 'invalid'})`);
      return null;
    }
    return this.markIfInterrupted(parsed.data as RunRecord);
  }

  // A record still queued or running whose process is gone (killed, crashed, power lost) will never finish: it is
  // marked failed with RUN_INTERRUPTED, keeping the points it had, and saved so that it stays that way.
  private async markIfInterrupted(record: RunRecord): Promise<RunRecord> {
    if (record.status !== 'queued' && record.status !== 'running') return record;
    const pid = record.environment.runnerPid ?? null;
    if (pid !== null && processAlive(pid, record.environment.runnerStartTicks ?? null)) return record;
    record.status = 'failed';
    record.error = {
      code: 'RUN_INTERRUPTED',
      message: `The process that ran this lab${pid === null ? '' : ` (pid ${pid})`} stopped before the run finished; the ${record.points.length} point(s) measured until then are kept`,
    };
    await this.save(record).catch((err: unknown) => this.warn(`could not mark run ${record.id} interrupted: ${(err as Error).message}`));
    return record;
  }

  async list(): Promise<RunSummary[]> {
    const names = (await readdir(this.dir).catch((err: NodeJS.ErrnoException) => (err.code === 'ENOENT' ? [] : Promise.reject(err)))).filter((n) => n.endsWith(RECORD_SUFFIX));
    const records = await Promise.all(names.map((n) => this.load(join(this.dir, n))));
    return records
      .filter((r): r is RunRecord => r !== null)
      .map(runSummary)
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  }

  async get(id: string): Promise<RunRecord> {
    const record = await this.load(this.pathOf(id));
    if (!record) throw new GpuLabError('NOT_FOUND', `No readable run "${id}" in ${this.dir}`, { runId: id });
    // Every reader (the app, the CLI, the report) gets its findings from the current analysis (current-findings.ts).
    return withCurrentFindings(record);
  }

  async delete(id: string): Promise<void> {
    const path = this.pathOf(id);
    try {
      await rm(path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new GpuLabError('NOT_FOUND', `No run "${id}" in ${this.dir}`, { runId: id });
      throw err;
    }
  }
}
