// What every section of a report is written with: the page layout, the words, and what the person asking for the
// report said about it (author and course, already checked), with the date and the version writing it.
import { catalogTranslate } from '../../renderer/charts/catalog-translate.ts';
import { results } from '../../renderer/charts/results-catalog.ts';
import { resultsEs } from '../../renderer/charts/results-catalog-es.ts';
import type { Translate } from '../../renderer/charts/text.ts';
import type { LabDescriptor } from '../common/lab-descriptor.ts';
import type { Locale } from '../common/locale.ts';
import type { RunRecord } from '../common/run-record.ts';
import type { ReportLayout } from './layout.ts';
import { reportWords } from './words/report-words.ts';
import { reportWordsEs } from './words/report-words-es.ts';

// The PDF's words and the app's chart and table words, by the same kind of keys: "pdf.…" and "results.…", in each
// language the report is written in.
const TRANSLATE: Record<Locale, Translate> = {
  en: catalogTranslate({ results, pdf: reportWords }),
  es: catalogTranslate({ results: resultsEs, pdf: reportWordsEs }),
};

export function reportTranslate(locale: Locale): Translate {
  return TRANSLATE[locale];
}

// The English words, as a report is written where no language is asked for.
export const reportT: Translate = TRANSLATE.en;

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
}

export interface ReportContext {
  layout: ReportLayout;
  t: Translate;
  settings: ReportSettings;
}

export interface LabRun {
  record: RunRecord;
  lab: LabDescriptor;
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
