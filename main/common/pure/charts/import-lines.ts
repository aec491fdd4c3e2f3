// What an import did, in the reader's words: for each source the runs imported (under a new id where another run held
// theirs), those already here, each entry left out and why, and a source refused whole. The CLI prints these lines and
// History's import dialog shows them (machines.import in the catalogs).
import type { ImportedSource } from '../../contract/imports.ts';
import type { Translate } from './text.ts';

export type ImportLineTone = 'imported' | 'identical' | 'skipped' | 'refused';

export interface ImportLine {
  tone: ImportLineTone;
  text: string;
}

export function importLines(source: ImportedSource, t: Translate): ImportLine[] {
  const k = (key: string): string => `machines.import.${key}`;
  const lines: ImportLine[] = [];
  if (source.refused) {
    const { reason, detail, count, limit } = source.refused;
    lines.push({ tone: 'refused', text: t(k('refused'), { why: t(k(`refusal.${reason}`), { detail, count: count ?? '', limit: limit ?? '' }) }) });
  }
  for (const run of source.imported) {
    const named = { id: run.id, lab: run.lab, device: run.device };
    lines.push({ tone: 'imported', text: run.was === null ? t(k('imported'), named) : t(k('renamed'), { ...named, was: run.was }) });
  }
  for (const same of source.identical) lines.push({ tone: 'identical', text: t(k('identical'), { entry: same.entry, id: same.id }) });
  for (const left of source.skipped) {
    const why = t(k(`skip.${left.reason}`), { detail: left.detail, bytes: left.bytes ?? '', limit: left.limit ?? '' });
    lines.push({ tone: 'skipped', text: t(k('skipped'), { entry: left.entry, why }) });
  }
  if (source.otherFiles > 0) lines.push({ tone: 'skipped', text: t(k('otherFiles'), { count: source.otherFiles }, source.otherFiles) });
  return lines;
}

export function importSummary(source: ImportedSource, t: Translate): string {
  return t('machines.import.summary', { source: source.source, imported: source.imported.length, identical: source.identical.length, skipped: source.skipped.length + source.otherFiles });
}

// Whether anything was left out or refused: the CLI's exit code says so.
export function importLeftSomethingOut(sources: readonly ImportedSource[]): boolean {
  return sources.some((s) => s.refused !== null || s.skipped.length > 0);
}
