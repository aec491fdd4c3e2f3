// The reference results a lab is shown beside: the table GPU Lab ships (common/reference-table.ts) and those a teacher
// puts in the data folder's references/ (`gpu-lab runs export ID --reference --out DIR/references/NAME.json`, one
// file a run). Those files are read as every file of the data folder is (regular-file.ts: regular files only, no
// link followed, the folder itself no link either, a size cap), checked against the schema, and capped in number; one that fails is skipped with a
// warning naming it.
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';

import type { ReferenceResult } from '../common/contract/labs.ts';
import { STORED_REFERENCE } from '../common/reference-run.ts';
import type { ReferenceRun } from '../common/reference-run.ts';
import { REFERENCE_TABLE } from '../common/reference-table.ts';
import { notJson, readRegularFile } from './regular-file.ts';

// A reference holds a lab's headline points only: a few kilobytes.
export const MAX_REFERENCE_BYTES = 1024 * 1024;
export const MAX_REFERENCE_FILES = 200;

export async function readReferenceFiles(dataDir: string, warn: (message: string) => void): Promise<ReferenceRun[]> {
  const dir = join(dataDir, 'references');
  // The folder itself may not lead out of the data folder either: a link in its place is not followed.
  const looked = await lstat(dir).catch(() => null);
  if (looked === null) return [];
  if (!looked.isDirectory()) {
    warn(`not reading ${dir}: it is ${looked.isSymbolicLink() ? 'a symbolic link (not followed)' : 'not a folder'}`);
    return [];
  }
  const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith('.json')).sort();
  if (names.length > MAX_REFERENCE_FILES) warn(`${dir} holds ${names.length} reference files: reading the first ${MAX_REFERENCE_FILES}`);
  const references: ReferenceRun[] = [];
  for (const name of names.slice(0, MAX_REFERENCE_FILES)) {
    const path = join(dir, name);
    try {
      const { text } = await readRegularFile(path, { maxBytes: MAX_REFERENCE_BYTES, what: 'reference file' });
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch (err) {
        warn(`skipping reference file ${path}: ${notJson(err)}`);
        continue;
      }
      const parsed = STORED_REFERENCE.safeParse(json);
      if (parsed.success) references.push(parsed.data);
      else warn(`skipping reference file ${path}: not a reference of GPU Lab (${parsed.error.issues[0]?.path.join('.') ?? ''}: ${parsed.error.issues[0]?.message ?? 'invalid'})`);
    } catch (err) {
      warn(`skipping ${(err as Error).message.replace(/^Not reading the /, '')}`);
    }
  }
  return references;
}

// A lab's references: the shipped table's, then the data folder's.
export async function referenceResults(lab: string, dataDir: string, warn: (message: string) => void): Promise<ReferenceResult[]> {
  const shipped = REFERENCE_TABLE.filter((r) => r.lab === lab).map((reference) => ({ origin: 'shipped' as const, reference }));
  const local = (await readReferenceFiles(dataDir, warn)).filter((r) => r.lab === lab).map((reference) => ({ origin: 'data-folder' as const, reference }));
  return [...shipped, ...local];
}
