// What every section of a report is written with: the page layout, the words, and what the person asking for the
// report said about it (author and course, already checked), with the date and the version writing it.
import type { ReferenceResult } from '../common/contract/labs.ts';
import { translator } from '../common/pure/i18n/index.ts';
import type { Translate } from '../common/pure/i18n/translate.ts';
import type { LabDescriptor } from '../common/lab-descriptor.ts';
import type { Locale } from '../common/pure/locale.ts';
import type { RunRecord } from '../common/run-record.ts';
import type { ReportLayout } from './layout.ts';

// The PDF's words and the app's chart and table words, by the same kind of keys: "pdf.…", "results.…" and
// "kernelChart.…", in each language the report is written in.
export function reportTranslate(locale: Locale): Translate {
  return translator(locale);
}

// The English words, as a report is written where no language is asked for.
export const reportT: Translate = translator('en');

export interface ReportAuthorship {
  author: string;
  course: string;
}

export interface ReportSettings extends ReportAuthorship {
  date: Date;
  // The version of GPU Lab writing the report (a run records the version that measured it).
  writerVersion: string;
  // Folders holding shaders/ and native/, where the kernel sources are read.
  sourceRoots: string[];
  // The language of the words and numbers; dates stay ISO in every language.
  locale: Locale;
  // Other machines' results a run is shown beside (machines-sections.ts), never as its own.
  references: readonly ReferenceResult[];
}

export interface ReportContext {
  layout: ReportLayout;
  t: Translate;
  settings: ReportSettings;
}

export interface LabRun {
  record: RunRecord;
  lab: LabDescriptor;
  // Earlier runs of the same lab with the same parameters on the same device, newest first (the report of every lab
  // gives a break-even's spread over them: break-even-spread.ts).
  repeats?: readonly RunRecord[];
}

// "2026-11-23 07:49 UTC": one reading on every machine, whatever its locale or time zone.
export function dateText(iso: string | Date | null): string {
  if (iso === null) return '—';
  const date = typeof iso === 'string' ? new Date(iso) : iso;
  if (Number.isNaN(date.getTime())) return String(iso);
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

export function deviceName(record: RunRecord, id: string = record.device): string {
  const device = record.environment.devices?.devices.find((d) => d.id === id);
  return device ? `${device.name} (${id})` : id;
}
