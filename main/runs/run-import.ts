// Runs of other machines brought into the runs folder (`gpu-lab runs import`, the History page's Import): each source
// staged first in a folder of its own inside the data folder (import-staging.ts: the caps, the names, the special
// entries), then every staged record read as the store reads one (stored-record.ts: an older schema version's in this
// one's words, a newer one refused naming both) and checked against the schema (a bad one left out and named), then matched with what is here: the same run already stored is left alone; a different run under an id
// already taken is kept under a new id, and said; the rest keeps its id. Only then does anything enter runs/, each
// file by a hard link that fails rather than replace one (or a copy made only where no file is), so nothing stored is
// ever overwritten; a source refused at a cap, or one whose records the disk would not take, leaves nothing behind.
import { createHash, randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { copyFile, link, lstat, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import type { ImportReport, ImportedSource } from '../common/contract/imports.ts';
import { withCurrentFindings } from './current-findings.ts';
import { IMPORT_LIMITS, SourceRefused, printableName, stageSource } from './import-staging.ts';
import type { ImportLimits, ImportSource, StagedEntry, Stager } from './import-staging.ts';
import { notJson, readRegularFile } from './regular-file.ts';
import type { RunStore } from './run-store.ts';
import { readStoredRecord } from './stored-record.ts';

export interface ImportOptions {
  dataDir: string;
  store: RunStore;
  limits?: ImportLimits;
}

// What is here already: every stored run's id, and the runs of each content (a record's JSON but its id).
interface Held {
  ids: Set<string>;
  byContent: Map<string, Set<string>>;
}

// A record to move in: its staged file, under the id it will have.
interface Placing {
  entry: string;
  path: string;
  id: string;
  was: string | null;
  // The id the staged file holds: the record's own until it is written anew under `id`.
  fileId: string;
  json: Record<string, unknown>;
  lab: string;
  device: string;
}

const STAGING_PREFIX = '.import-';
// A staging folder left by an import that died (a crash, a machine switched off) is removed by a later one; an import
// in progress elsewhere on a shared folder is never that old.
const STALE_MS = 24 * 3600 * 1000;

// JSON with every object's keys in order: two files of the same record, whatever wrote them, give the same text.
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

// A record's content but its id, as this version reads it: an older schema version's record in this one's words
// (stored-record.ts), its findings and summary derived again (current-findings.ts), so that a run exported by another
// version, or re-derived since, is still the same measurement; and without its id, so that a run kept here under a new
// id is found the same when it comes again.
function contentOf(json: unknown): string {
  const read = readStoredRecord(json);
  if (!read.ok) return createHash('sha256').update(canonical(json)).digest('hex');
  const { id: _id, ...rest } = withCurrentFindings(read.record);
  return createHash('sha256').update(canonical(rest)).digest('hex');
}

async function heldRuns(store: RunStore): Promise<Held> {
  const held: Held = { ids: new Set(), byContent: new Map() };
  await store.storedJson((id, json) => hold(held, id, contentOf(json)));
  return held;
}

function hold(held: Held, id: string, content: string): void {
  held.ids.add(id);
  held.byContent.set(content, (held.byContent.get(content) ?? new Set()).add(id));
}

// The run here that is this very record: the same content under its id, or under a new id an import gave it.
function sameRun(held: Held, id: string, content: string): string | undefined {
  const renamed = `${id.slice(0, 103)}-imported-`;
  return [...(held.byContent.get(content) ?? [])].find((kept) => kept === id || (kept.startsWith(renamed) && /^[0-9a-f]{6}$/.test(kept.slice(renamed.length))));
}

// An id no run here has: the record's own with a suffix, cut to fit the 120 characters of an id.
function freshId(id: string, held: Held): string {
  for (;;) {
    const candidate = `${id.slice(0, 103)}-imported-${randomBytes(3).toString('hex')}`;
    if (!held.ids.has(candidate)) return candidate;
  }
}

async function removeStaleStaging(dataDir: string): Promise<void> {
  const names = await readdir(dataDir).catch(() => [] as string[]);
  for (const name of names.filter((n) => n.startsWith(STAGING_PREFIX))) {
    const path = join(dataDir, name);
    const stats = await lstat(path).catch(() => null);
    if (stats?.isDirectory() && Date.now() - stats.mtimeMs > STALE_MS) await rm(path, { recursive: true, force: true }).catch(() => undefined);
  }
}

// A staged record judged: left out (and said why), the same as one stored, or to be moved in.
async function judge(staged: StagedEntry, stager: Stager, held: Held, result: ImportedSource, placing: Placing[]): Promise<void> {
  const { entry } = staged;
  let text: string;
  try {
    text = (await readRegularFile(staged.path, { maxBytes: stager.entryBytes, what: 'run file' })).text;
  } catch (err) {
    stager.skip(entry, 'unreadable', (err as Error).message);
    return;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    stager.skip(entry, 'not-json', notJson(err));
    return;
  }
  const read = readStoredRecord(json);
  if (!read.ok) {
    stager.skip(entry, 'not-a-run', read.message, { field: read.field });
    return;
  }
  const record = read.record;
  if (record.status === 'queued' || record.status === 'running') {
    stager.skip(entry, 'running', `it was ${record.status} where it was copied from: import it again once it has ended`);
    return;
  }
  const content = contentOf(json);
  const same = sameRun(held, record.id, content);
  if (same !== undefined) {
    result.identical.push({ id: same, entry });
    return;
  }
  const id = held.ids.has(record.id) ? freshId(record.id, held) : record.id;
  hold(held, id, content);
  placing.push({ entry, path: staged.path, id, was: id === record.id ? null : record.id, fileId: record.id, json: json as Record<string, unknown>, lab: record.lab, device: record.device });
}

// Where no hard link can be made (a file system without them), a copy that is created only where no file is.
const NO_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'EXDEV', 'ENOSYS', 'EMLINK']);

async function placeOne(p: Placing, runsDir: string, stagingDir: string, held: Held): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    const target = join(runsDir, `${p.id}.json`);
    // A record under a new id is written anew with that id; the rest moves in as it came.
    if (p.fileId !== p.id) {
      const path = join(stagingDir, `renamed-${attempt}-${p.id}.json`);
      await writeFile(path, JSON.stringify({ ...p.json, id: p.id }), { flag: 'wx', mode: 0o600 });
      p.path = path;
      p.fileId = p.id;
    }
    try {
      await link(p.path, target).catch((err: NodeJS.ErrnoException) => (NO_LINKS.has(err.code ?? '') ? copyFile(p.path, target, constants.COPYFILE_EXCL) : Promise.reject(err)));
      return target;
    } catch (err) {
      // A file of that name appeared since (another import, a sync tool): the record takes another id.
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 8) throw err;
      p.was ??= p.id;
      p.id = freshId(p.was, held);
      hold(held, p.id, contentOf(p.json));
    }
  }
}

// Every record of a source into runs/, or none: one that cannot be written takes back those written before it.
async function moveIn(placing: readonly Placing[], runsDir: string, stagingDir: string, held: Held): Promise<void> {
  const placed: string[] = [];
  try {
    for (const p of placing) placed.push(await placeOne(p, runsDir, stagingDir, held));
  } catch (err) {
    await Promise.all(placed.map((path) => rm(path, { force: true })));
    throw err;
  }
}

async function importSource(source: ImportSource, held: Held, options: ImportOptions): Promise<ImportedSource> {
  const result: ImportedSource = { source: printableName(source.name), refused: null, imported: [], identical: [], skipped: [], otherFiles: 0 };
  const refuse = (refusal: SourceRefused): ImportedSource => ({ ...result, identical: [], refused: { reason: refusal.reason, detail: refusal.message, count: refusal.count, limit: refusal.limit } });
  const staging = await mkdtemp(join(options.dataDir, STAGING_PREFIX));
  try {
    let stager: Stager;
    try {
      stager = await stageSource(source, staging, options.limits ?? IMPORT_LIMITS);
    } catch (err) {
      if (err instanceof SourceRefused) return refuse(err);
      throw err;
    }
    const placing: Placing[] = [];
    for (const staged of stager.staged) await judge(staged, stager, held, result, placing);
    try {
      await moveIn(placing, options.store.dir, staging, held);
    } catch (err) {
      // Not here after all: a later source bringing the same runs imports them.
      for (const p of placing) {
        held.ids.delete(p.id);
        held.byContent.get(contentOf(p.json))?.delete(p.id);
      }
      const code = (err as NodeJS.ErrnoException).code ?? 'EIO';
      return { ...refuse(new SourceRefused('not-written', `the runs folder would not take the records (${code}): nothing imported`)), skipped: stager.skipped, otherFiles: stager.otherFiles };
    }
    const imported = placing.map((p) => ({ id: p.id, was: p.was, entry: p.entry, lab: p.lab, device: p.device }));
    return { ...result, imported, skipped: stager.skipped, otherFiles: stager.otherFiles };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

// Each source in turn, each imported whole or refused whole; what became of every entry in the report.
export async function importRuns(sources: readonly ImportSource[], options: ImportOptions): Promise<ImportReport> {
  await removeStaleStaging(options.dataDir);
  const held = await heldRuns(options.store);
  const report: ImportReport = { sources: [] };
  for (const source of sources) report.sources.push(await importSource(source, held, options));
  return report;
}
