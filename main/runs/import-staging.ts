// The first half of an import (run-import.ts): every source a person names (a folder of records, one .json, a .tar,
// .tar.gz or .zip archive) turned into plain files in a staging folder of the import's own, inside the data folder.
// Archives are hostile until proven not. Nothing in one is created as it says: an entry's bytes are written under a
// number the stager picks, in the staging folder only, so no name of the archive's can lead anywhere; a name that
// would (absolute, with a `..`) is named in the report and left out, and so is every link (symbolic or hard), device,
// FIFO and other special entry, never followed or made. The caps hold throughout: the entries counted as they come
// (a zip's count read before any), each entry's size against a record's cap, and the uncompressed bytes of the whole
// (a tar's stream after gunzip, a zip's inflated entries) against the total's, where a bomb stops with nothing moved
// in. tar (node-tar) and zip (yauzl) are read with maintained libraries; neither is asked to write a file.
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { Stats } from 'node:fs';
import { lstat, readdir, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';

import { Parser, type ReadEntry } from 'tar';
import yauzl from 'yauzl';

import type { ImportRefusal, ImportSkipReason, ImportedSource } from '../common/contract/imports.ts';
import { MAX_RECORD_BYTES, readRegularFile, unreadOf } from './regular-file.ts';

export interface ImportLimits {
  // Entries of one source, of every kind (folders and links included).
  entries: number;
  // One entry's bytes: a run record's cap (regular-file.ts).
  entryBytes: number;
  // Uncompressed bytes of one source: a tar's whole stream, a zip's entries, a folder's records.
  totalBytes: number;
}

export const IMPORT_LIMITS: ImportLimits = { entries: 10_000, entryBytes: MAX_RECORD_BYTES, totalBytes: 1024 * 1024 * 1024 };

export type SourceKind = 'folder' | 'json' | 'tar' | 'tar.gz' | 'zip';

export interface ImportSource {
  path: string;
  kind: SourceKind;
  // How the report names it: the path given, an uploaded file's name.
  name: string;
}

// The kind a file's name says it is, or null.
export function archiveKindOf(name: string): Exclude<SourceKind, 'folder'> | null {
  const lower = name.toLowerCase();
  if (lower.endsWith('.json')) return 'json';
  if (lower.endsWith('.tar.gz') || lower.endsWith('.tgz')) return 'tar.gz';
  if (lower.endsWith('.tar')) return 'tar';
  if (lower.endsWith('.zip')) return 'zip';
  return null;
}

export type SkippedEntry = ImportedSource['skipped'][number];

// A source refused whole: the report says why, and nothing of it is imported.
export class SourceRefused extends Error {
  readonly reason: ImportRefusal;
  readonly count: number | null;
  readonly limit: number | null;

  constructor(reason: ImportRefusal, detail: string, count: number | null = null, limit: number | null = null) {
    super(detail);
    this.reason = reason;
    this.count = count;
    this.limit = limit;
  }
}

export interface StagedEntry {
  // The entry's name in its source, for the report.
  entry: string;
  path: string;
}

// What an entry is, by its archive's word for it or the folder's lstat.
type EntryKind = 'file' | 'folder' | 'symlink' | 'hardlink' | 'device' | 'fifo' | 'special';

// An entry's name as a report may print it: no control character a terminal would act on, a bounded length.
export function printableName(name: string): string {
  // eslint-disable-next-line no-control-regex
  const clean = name.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, '\uFFFD');
  return clean.length > 1024 ? `${clean.slice(0, 1000)}…` : clean;
}

// Why a name could lead out of the folder it is extracted into, or null: absolute (a leading / or \, a drive
// letter), a `..` part (either slash counts as one: archives made on Windows use \), or a NUL.
export function unsafeNameWhy(name: string): string | null {
  if (name.includes('\0')) return 'a NUL character in the name';
  if (/^[/\\]/.test(name) || /^[A-Za-z]:/.test(name)) return 'an absolute path';
  if (name.split(/[/\\]/).includes('..')) return 'a path with ".." in it';
  return null;
}

const KIND_SKIPS: Partial<Record<EntryKind, { reason: ImportSkipReason; what: string }>> = {
  symlink: { reason: 'link', what: 'a symbolic link: not followed, not created' },
  hardlink: { reason: 'hardlink', what: 'a hard link: not followed, not created' },
  device: { reason: 'device', what: 'a device file: not created' },
  fifo: { reason: 'fifo', what: 'a FIFO: not created' },
  special: { reason: 'special', what: 'a special entry (not a regular file): not created' },
};

// The entries of one source as they are read: counted, judged, and the records among them written in the staging
// folder under numbers of its own.
export class Stager {
  readonly staged: StagedEntry[] = [];
  readonly skipped: SkippedEntry[] = [];
  otherFiles = 0;
  private entries = 0;
  private bytes = 0;
  private readonly dir: string;
  private readonly limits: ImportLimits;

  constructor(dir: string, limits: ImportLimits) {
    this.dir = dir;
    this.limits = limits;
  }

  // One more entry, of any kind: the source is refused at the cap.
  count(): void {
    this.entries++;
    if (this.entries > this.limits.entries) throw tooManyEntries(this.entries, this.limits.entries);
  }

  // Uncompressed bytes read: the source is refused at the cap, before the bytes past it are read.
  add(bytes: number): void {
    this.bytes += bytes;
    if (this.bytes > this.limits.totalBytes) {
      throw new SourceRefused('too-large', `more than ${this.limits.totalBytes} bytes uncompressed (the cap of one import): stopped after ${this.bytes}, nothing imported`, this.bytes, this.limits.totalBytes);
    }
  }

  skip(entry: string, reason: ImportSkipReason, detail: string, more: Partial<Pick<SkippedEntry, 'field' | 'bytes' | 'limit'>> = {}): void {
    this.skipped.push({ entry: printableName(entry), reason, detail, field: more.field ?? null, bytes: more.bytes ?? null, limit: more.limit ?? null });
  }

  // Whether an entry's bytes are wanted: a regular file named *.json of at most a record's size. Anything else is
  // said in the report (a folder quietly, a file of another name counted).
  wants(name: string, kind: EntryKind, size: number): boolean {
    const unsafe = unsafeNameWhy(name);
    if (unsafe) {
      this.skip(name, 'unsafe-name', unsafe);
      return false;
    }
    const special = KIND_SKIPS[kind];
    if (special) {
      this.skip(name, special.reason, special.what);
      return false;
    }
    if (kind === 'folder') return false;
    if (!name.toLowerCase().endsWith('.json')) {
      this.otherFiles++;
      return false;
    }
    if (size > this.limits.entryBytes) {
      this.skip(name, 'too-large', `${size} bytes, more than the ${this.limits.entryBytes} a run record may hold`, { bytes: size, limit: this.limits.entryBytes });
      return false;
    }
    return true;
  }

  get entryBytes(): number {
    return this.limits.entryBytes;
  }

  async keep(entry: string, body: Buffer): Promise<void> {
    const path = join(this.dir, `${String(this.staged.length).padStart(6, '0')}-${randomBytes(4).toString('hex')}.json`);
    // 'wx': a new file, never one that is there (the folder is the import's own, made by mkdtemp).
    await writeFile(path, body, { flag: 'wx', mode: 0o600 });
    this.staged.push({ entry: printableName(entry), path });
  }
}

function tooManyEntries(count: number, limit: number): SourceRefused {
  return new SourceRefused('too-many-entries', `more than ${limit} entries (the cap of one import): nothing imported`, count, limit);
}

const TAR_KINDS: Partial<Record<string, EntryKind>> = {
  File: 'file',
  OldFile: 'file',
  ContiguousFile: 'file',
  Directory: 'folder',
  GNUDumpDir: 'folder',
  SymbolicLink: 'symlink',
  Link: 'hardlink',
  CharacterDevice: 'device',
  BlockDevice: 'device',
  FIFO: 'fifo',
};

// A tar stream as it begins: a ustar header (GNU tar, bsdtar, node-tar and Python write one), and no second layer of
// compression (the parser would unpack gzip or zstd again on its own, past the count of uncompressed bytes).
function checkTarHead(head: Buffer): void {
  if (head.length < 512 || head.subarray(257, 262).toString('latin1') !== 'ustar') throw new SourceRefused('damaged', 'not a tar archive (no ustar header)');
  if ((head[0] === 0x1f && head[1] === 0x8b) || head.subarray(0, 4).equals(Buffer.from([0x28, 0xb5, 0x2f, 0xfd]))) throw new SourceRefused('damaged', 'a compressed stream inside the archive');
}

async function stageTar(source: ImportSource, stager: Stager): Promise<void> {
  const parser = new Parser({ strict: true, brotli: false, zstd: false });
  let failure: unknown = null;
  // The parser emits entries from inside write(): what goes wrong there is kept and thrown by the loop feeding it.
  const fail = (err: unknown): void => {
    failure ??= err;
  };
  let writing: Promise<void> = Promise.resolve();
  parser.on('error', fail);
  parser.on('entry', (entry: ReadEntry) => {
    try {
      stager.count();
      if (!stager.wants(entry.path, TAR_KINDS[entry.type] ?? 'special', entry.size)) {
        entry.resume();
        return;
      }
      const chunks: Buffer[] = [];
      entry.on('data', (chunk: Buffer) => chunks.push(chunk));
      entry.on('end', () => {
        const body = Buffer.concat(chunks);
        writing = writing.then(() => stager.keep(entry.path, body)).catch(fail);
      });
    } catch (err) {
      fail(err);
      entry.resume();
    }
  });
  let head: Buffer | null = Buffer.alloc(0);
  const feed = async (chunk: Buffer): Promise<void> => {
    stager.add(chunk.length);
    let data = chunk;
    if (head !== null) {
      head = Buffer.concat([head, chunk]);
      if (head.length < 512) return;
      checkTarHead(head);
      data = head;
      head = null;
    }
    parser.write(data);
    if (failure) throw failure;
    // One entry's bytes at most wait in memory for the disk.
    await writing;
    if (failure) throw failure;
  };
  const consume = async (stream: AsyncIterable<Buffer>): Promise<void> => {
    for await (const chunk of stream) await feed(chunk);
  };
  try {
    if (source.kind === 'tar.gz') await pipeline(createReadStream(source.path), createGunzip(), consume);
    else await pipeline(createReadStream(source.path), consume);
    if (head !== null) checkTarHead(head);
    await new Promise<void>((resolve) => {
      parser.once('end', resolve);
      parser.once('error', () => resolve());
      parser.end();
    });
    await writing;
  } catch (err) {
    throw err instanceof SourceRefused ? err : damaged(err, failure);
  }
  if (failure) throw damaged(failure, null);
}

function damaged(err: unknown, earlier: unknown): SourceRefused {
  const first = earlier ?? err;
  if (first instanceof SourceRefused) return first;
  const code = (first as NodeJS.ErrnoException).code;
  if (code && /^E[A-Z]+$/.test(code)) return new SourceRefused('unreadable', `the system refused it (${code})`);
  return new SourceRefused('damaged', `not a readable archive: ${first instanceof Error ? first.message.slice(0, 300) : String(first)}`);
}

// A zip entry's kind from its Unix mode where a Unix zip wrote one (the high half of its external attributes).
function zipKind(entry: yauzl.Entry, name: string): EntryKind {
  if (name.endsWith('/')) return 'folder';
  if (entry.versionMadeBy >> 8 !== 3) return 'file';
  const type = (entry.externalFileAttributes >>> 16) & 0o170000;
  if (type === 0 || type === 0o100000) return 'file';
  if (type === 0o040000) return 'folder';
  if (type === 0o120000) return 'symlink';
  if (type === 0o020000 || type === 0o060000) return 'device';
  if (type === 0o010000) return 'fifo';
  return 'special';
}

async function stageZip(source: ImportSource, stager: Stager, limits: ImportLimits): Promise<void> {
  let zip: yauzl.ZipFile | null = null;
  try {
    // Names are decoded here, not by yauzl, and kept as written (backslashes too): yauzl would end the whole archive at
    // the first unsafe name, where only that entry is left out. Sizes are checked against what each entry says
    // (validateEntrySizes) and counted again here.
    zip = await yauzl.openPromise(source.path, { decodeStrings: false, validateEntrySizes: true, autoClose: false });
    if (zip.entryCount > limits.entries) throw tooManyEntries(zip.entryCount, limits.entries);
    // The central directory first, which inflates nothing: the entries wanted and the bytes they declare. An archive
    // that declares more than the cap (a bomb of entries that all point at one inflating file) is refused before any
    // is read; one that lies about a size fails as it inflates.
    const wanted: { entry: yauzl.Entry; name: string }[] = [];
    let declared = 0;
    for await (const entry of zip.eachEntry()) {
      stager.count();
      const name = yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, entry.fileNameRaw, entry.extraFields, true);
      if (!stager.wants(name, zipKind(entry, name), entry.uncompressedSize)) continue;
      if (!entry.canDecodeFileData()) {
        stager.skip(name, 'unreadable', `encrypted, or compressed with method ${entry.compressionMethod}, which zip readers need not know`);
        continue;
      }
      declared += entry.uncompressedSize;
      wanted.push({ entry, name });
    }
    if (declared > limits.totalBytes) {
      throw new SourceRefused('too-large', `its records declare ${declared} bytes uncompressed, more than the ${limits.totalBytes} of one import: nothing read, nothing imported`, declared, limits.totalBytes);
    }
    for (const { entry, name } of wanted) {
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of await zip.openReadStreamPromise(entry)) {
        const bytes = chunk as Buffer;
        size += bytes.length;
        stager.add(bytes.length);
        if (size > stager.entryBytes) throw new SourceRefused('damaged', `${printableName(name)} inflates past the size it declares`);
        chunks.push(bytes);
      }
      await stager.keep(name, Buffer.concat(chunks));
    }
  } catch (err) {
    throw damaged(err, null);
  } finally {
    zip?.close();
  }
}

function statKind(stats: Stats): EntryKind {
  if (stats.isFile()) return 'file';
  if (stats.isDirectory()) return 'folder';
  if (stats.isSymbolicLink()) return 'symlink';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'device';
  if (stats.isFIFO()) return 'fifo';
  return 'special';
}

// A record file read as the run store reads one (regular-file.ts), into the stager.
async function stageFile(path: string, entry: string, stager: Stager): Promise<void> {
  const looked = await lstat(path);
  if (!stager.wants(entry, statKind(looked), looked.size)) return;
  try {
    const { text } = await readRegularFile(path, { maxBytes: stager.entryBytes, what: 'run file' });
    const body = Buffer.from(text, 'utf8');
    stager.add(body.length);
    await stager.keep(entry, body);
  } catch (err) {
    const unread = unreadOf(err);
    if (!unread) throw err;
    stager.skip(entry, unread.reason === 'too-large' ? 'too-large' : 'unreadable', (err as Error).message, { bytes: unread.bytes ?? null, limit: unread.maxBytes ?? null });
  }
}

// A folder's records: its runs/ where it is a data folder, else its own .json files (sub-folders are not entered).
async function stageFolder(source: ImportSource, stager: Stager, limits: ImportLimits): Promise<void> {
  const runs = join(source.path, 'runs');
  const inner = await lstat(runs).catch(() => null);
  const dir = inner?.isDirectory() ? runs : source.path;
  const names = (await readdir(dir)).sort();
  if (names.length > limits.entries) throw tooManyEntries(names.length, limits.entries);
  for (const name of names) {
    stager.count();
    await stageFile(join(dir, name), name, stager);
  }
}

// The source's records staged in `dir`, with what was left out and why; a SourceRefused where the whole is refused.
export async function stageSource(source: ImportSource, dir: string, limits: ImportLimits): Promise<Stager> {
  const stager = new Stager(dir, limits);
  try {
    if (source.kind === 'folder') await stageFolder(source, stager, limits);
    else if (source.kind === 'json') {
      stager.count();
      await stageFile(source.path, basename(source.name), stager);
    } else if (source.kind === 'zip') await stageZip(source, stager, limits);
    else await stageTar(source, stager);
  } catch (err) {
    throw err instanceof SourceRefused ? err : damaged(err, null);
  }
  return stager;
}
