// What the import dialog sends: the picked archive, or a folder's records (its runs/ where it is a data folder, else
// its own .json files, as `gpu-lab runs import FOLDER` reads one), handed to main through the imports service in
// parts of the size it asks for, in order (through the runs store, which reads the history again once it is in); an
// upload that fails on the way is cancelled, leaving nothing on the server.
import type { ImportReport } from '../../../main/common/contract/imports.ts';
import { useRunsStore } from '../../stores/runs.ts';

// The files of a picked folder that `runs import` would read: `webkitRelativePath` is "folder/…/name".
export function folderRecords(files: readonly File[]): File[] {
  const depth = (f: File): string[] => (f.webkitRelativePath || f.name).split('/');
  const json = files.filter((f) => f.name.toLowerCase().endsWith('.json'));
  const inRuns = json.filter((f) => depth(f).length === 3 && depth(f)[1] === 'runs');
  return inRuns.length > 0 ? inRuns : json.filter((f) => depth(f).length <= 2);
}

// Bytes as base64, in slices: String.fromCharCode takes a bounded number of arguments.
function base64(bytes: Uint8Array): string {
  let binary = '';
  for (let at = 0; at < bytes.length; at += 0x8000) binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  return btoa(binary);
}

export async function uploadRuns(files: readonly File[], onProgress: (file: File, fraction: number) => void): Promise<ImportReport> {
  const runs = useRunsStore();
  const { importId, partBytes } = await runs.beginImport(files.map((f) => ({ name: f.name, bytes: f.size })));
  try {
    for (const [index, file] of files.entries()) {
      for (let offset = 0; offset < file.size; offset += partBytes) {
        const part = new Uint8Array(await file.slice(offset, offset + partBytes).arrayBuffer());
        await runs.sendImportPart(importId, { file: index, offset, base64: base64(part) });
        onProgress(file, Math.min(1, (offset + part.length) / file.size));
      }
    }
    return await runs.finishImport(importId);
  } catch (err) {
    await runs.cancelImport(importId).catch(() => undefined);
    throw err;
  }
}
