// `gpu-lab runs import PATH…`: runs of other machines into this data folder, from folders of records (a data
// folder's runs/, a shared batch folder), single .json records, and .tar.gz/.tgz/.tar/.zip archives
// (main/runs/run-import.ts says what is checked). Each source is imported whole or refused whole; what became of every
// entry is printed, and the exit code is 1 where anything was left out or refused (the rest imported), 2 for a path
// that is not there or not something it reads.
import { realpath, stat } from 'node:fs/promises';

import { importLeftSomethingOut, importLines, importSummary } from '../common/pure/charts/import-lines.ts';
import { translator } from '../common/pure/i18n/index.ts';
import { archiveKindOf } from '../runs/import-staging.ts';
import type { ImportSource } from '../runs/import-staging.ts';
import { importRuns } from '../runs/run-import.ts';
import { RunStore } from '../runs/run-store.ts';
import type { CliContext, CliIo } from './command.ts';
import { UsageError } from './command.ts';

// A path as typed: a folder, or a file whose name says what it is; a link to either is read where it leads.
async function sourceOf(path: string): Promise<ImportSource> {
  if (path.trim() === '') throw new UsageError('usage.pathEmpty', { name: 'runs import' });
  const real = await realpath(path).catch(() => null);
  const stats = real === null ? null : await stat(real).catch(() => null);
  if (real === null || stats === null) throw new UsageError('usage.importMissing', { path });
  if (stats.isDirectory()) return { path: real, kind: 'folder', name: path };
  const kind = archiveKindOf(path);
  // Not a regular file (a FIFO would block the reader for ever), or a name that says nothing it reads.
  if (!stats.isFile() || kind === null) throw new UsageError('usage.importKind', { path });
  return { path: real, kind, name: path };
}

export async function importAction(paths: readonly string[], dataDir: string, json: boolean, io: CliIo, cx: CliContext): Promise<number> {
  if (paths.length === 0) throw new UsageError('usage.importPath');
  // Every path checked before anything is imported: a typo in the third does not leave the first two half done.
  const sources: ImportSource[] = [];
  for (const path of paths) sources.push(await sourceOf(path));
  const warn = (m: string): void => io.err(`gpu-lab: ${cx.t('error.warning', { detail: m })}\n`);
  const store = new RunStore(dataDir, { warn });
  const report = await importRuns(sources, { dataDir, store });
  if (json) io.out(`${JSON.stringify(report, null, 2)}\n`);
  else {
    const t = translator(cx.locale);
    for (const source of report.sources) {
      io.out(`${t('machines.import.source', { source: source.source })}\n`);
      for (const line of importLines(source, t)) io.out(`  ${line.text}\n`);
      io.out(`${importSummary(source, t)}\n`);
    }
  }
  return importLeftSomethingOut(report.sources) ? 1 : 0;
}
