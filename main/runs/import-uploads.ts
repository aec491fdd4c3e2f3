// The imports service of the contract: what a page picked (a folder's records, or an archive) arrives in parts, each
// written to a file of the upload's own folder inside the data folder, then imported as `gpu-lab runs import` imports
// a path (run-import.ts). An upload is anyone's who holds the server's token (the teacher's alone in a class,
// main/classroom/access.ts), so it is capped: its declared bytes together, each part, the uploads open at once, and
// how long one may wait between parts before it is dropped with its files. A part must come in order and within its
// file's declared size; a file's name says only what it is (.json, .tar.gz, .tgz, .tar, .zip), never where it goes.
import { randomBytes } from 'node:crypto';
import { appendFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import type { ImportReport, ImportsService, UploadFile } from '../common/contract/imports.ts';
import { UPLOAD_MAX_BYTES, UPLOAD_PART_BYTES } from '../common/contract/imports.ts';
import { GpuLabError } from '../common/errors.ts';
import { archiveKindOf, printableName } from './import-staging.ts';
import type { ImportSource, SourceKind } from './import-staging.ts';

export interface UploadLimits {
  bytes: number;
  partBytes: number;
  open: number;
  idleMs: number;
}

export const UPLOAD_LIMITS: UploadLimits = { bytes: UPLOAD_MAX_BYTES, partBytes: UPLOAD_PART_BYTES, open: 4, idleMs: 10 * 60 * 1000 };

interface UploadedFile {
  name: string;
  kind: Exclude<SourceKind, 'folder'>;
  bytes: number;
  received: number;
  path: string;
}

interface Upload {
  dir: string;
  files: UploadedFile[];
  // Parts are written one after another, whatever order the calls arrive in.
  queue: Promise<unknown>;
  idle: NodeJS.Timeout;
  finishing: boolean;
}

export interface ImportUploadsOptions {
  dataDir: string;
  importRuns: (sources: readonly ImportSource[]) => Promise<ImportReport>;
  limits?: UploadLimits;
}

function refuse(message: string, details: Record<string, unknown>): GpuLabError {
  return new GpuLabError('INVALID_ARGUMENT', message, details);
}

function checkFiles(files: readonly UploadFile[], limits: UploadLimits): Omit<UploadedFile, 'path'>[] {
  let total = 0;
  return files.map((file, index) => {
    const kind = archiveKindOf(file.name);
    // eslint-disable-next-line no-control-regex
    if (kind === null || /[/\\\u0000-\u001f\u007f]/.test(file.name)) {
      throw refuse(`File ${index} of the upload, ${JSON.stringify(printableName(file.name))}, is not a .json, .tar.gz, .tgz, .tar or .zip file's name (no folder, no control character)`, { field: `files.${index}.name`, value: printableName(file.name) });
    }
    total += file.bytes;
    if (total > limits.bytes) throw refuse(`The upload holds more than ${limits.bytes} bytes, the most one may hold: import a larger archive with gpu-lab runs import on the server`, { field: 'files', bytes: total, limit: limits.bytes });
    return { name: file.name, kind, bytes: file.bytes, received: 0 };
  });
}

export function createImportUploads(options: ImportUploadsOptions): ImportsService {
  const limits = options.limits ?? UPLOAD_LIMITS;
  const uploads = new Map<string, Upload>();

  const drop = async (id: string): Promise<void> => {
    const upload = uploads.get(id);
    if (!upload) return;
    uploads.delete(id);
    clearTimeout(upload.idle);
    await upload.queue.catch(() => undefined);
    await rm(upload.dir, { recursive: true, force: true });
  };
  const idleTimer = (id: string): NodeJS.Timeout => setTimeout(() => void drop(id), limits.idleMs).unref();
  const uploadOf = (id: string): Upload => {
    const upload = uploads.get(id);
    if (!upload || upload.finishing) throw new GpuLabError('NOT_FOUND', `No upload ${id} is open: it was finished, cancelled, or dropped after ${limits.idleMs / 60000} minutes without a part`, { importId: id });
    clearTimeout(upload.idle);
    upload.idle = idleTimer(id);
    return upload;
  };

  return {
    async begin(files) {
      const checked = checkFiles(files, limits);
      if (uploads.size >= limits.open) throw new GpuLabError('RATE_LIMITED', `${limits.open} uploads are open already: finish or cancel one first`, { open: uploads.size });
      const id = `u-${randomBytes(8).toString('hex')}`;
      const dir = await mkdtemp(join(options.dataDir, '.import-upload-'));
      // A folder's records keep their names (the report names them so) in a folder of their own; archives are numbered.
      await mkdir(join(dir, 'records'));
      const taken = new Set<string>();
      const withPaths = checked.map((f, i) => {
        const own = taken.has(f.name) ? `${i}-${f.name}` : f.name;
        taken.add(own);
        return { ...f, path: f.kind === 'json' ? join(dir, 'records', own) : join(dir, `${String(i).padStart(5, '0')}.${f.kind}`) };
      });
      await Promise.all(withPaths.map((f) => writeFile(f.path, '', { flag: 'wx', mode: 0o600 })));
      uploads.set(id, { dir, files: withPaths, queue: Promise.resolve(), idle: idleTimer(id), finishing: false });
      return { importId: id, partBytes: limits.partBytes };
    },
    async sendPart(importId, { file: index, offset, base64 }) {
      const upload = uploadOf(importId);
      const file = upload.files[index];
      if (!file) throw refuse(`The upload has ${upload.files.length} file(s): there is no file ${index}`, { field: 'file', value: index });
      const part = Buffer.from(base64, 'base64');
      if (part.length > limits.partBytes) throw refuse(`A part holds at most ${limits.partBytes} bytes, not ${part.length}`, { field: 'base64', bytes: part.length, limit: limits.partBytes });
      const write = upload.queue.then(async () => {
        if (offset !== file.received) throw refuse(`Part at ${offset} of ${printableName(file.name)} is out of order: ${file.received} bytes of it have arrived`, { field: 'offset', value: offset, received: file.received });
        if (file.received + part.length > file.bytes) throw refuse(`${printableName(file.name)} was declared ${file.bytes} bytes; this part would make it ${file.received + part.length}`, { field: 'base64', bytes: file.received + part.length, limit: file.bytes });
        await appendFile(file.path, part);
        file.received += part.length;
        return { received: file.received };
      });
      upload.queue = write.catch(() => undefined);
      return write;
    },
    async finish(importId) {
      const upload = uploadOf(importId);
      upload.finishing = true;
      try {
        await upload.queue;
        const short = upload.files.find((f) => f.received !== f.bytes);
        if (short) throw refuse(`${printableName(short.name)} has ${short.received} of its ${short.bytes} bytes: send the rest first`, { field: 'importId', file: printableName(short.name), received: short.received, bytes: short.bytes });
        // A folder's records are one source, as `gpu-lab runs import FOLDER` makes them; each archive is one of its own.
        const records = upload.files.filter((f) => f.kind === 'json');
        const archives = upload.files.filter((f) => f.kind !== 'json');
        const sources: ImportSource[] = archives.map((f) => ({ path: f.path, kind: f.kind, name: f.name }));
        if (records.length) sources.unshift({ path: join(upload.dir, 'records'), kind: 'folder', name: records.length === 1 && records[0] ? records[0].name : `${records.length} records` });
        return await options.importRuns(sources);
      } finally {
        await drop(importId);
      }
    },
    async cancel(importId) {
      uploadOf(importId);
      await drop(importId);
    },
  };
}
