// The labs in the reader's language: a descriptor with its words replaced by the catalog's (titles, explanations,
// parameters, presets, series, units) and its findings' templates attached, and a finding rendered from its message.
// English descriptors are the labs' own; a finding recorded before findings were messages keeps its English text.
import { CATALOGS as ALL, translator } from '../common/i18n/index.ts';
import type { Catalog } from '../common/i18n/translate.ts';
import type { LabDescriptor } from '../common/lab-descriptor.ts';
import type { Locale } from '../common/locale.ts';
import { renderMessage, type Message } from '../common/message.ts';
import type { Finding } from '../common/run-record.ts';
import { labDescriptors as labDescriptorsEs, sharedParameters as sharedParametersEs, units as unitsEs } from '../common/i18n/es/lab-text.ts';

const CATALOGS: Record<Locale, Catalog> = { en: ALL.en.labText, es: ALL.es.labText };

// A message of the labs' catalog in `locale` (a finding's sentence, a series label).
export function labMessage(m: Message, locale: Locale): string {
  return renderMessage(m, translator(locale, 'labText'), locale);
}

// A finding as the reader reads it: its message in their language, else the English it was recorded with.
export function findingText(f: Finding, locale: Locale): string {
  return labMessage(f.message, locale);
}

// Every template a lab's findings may use, flat by message id: the lab's own and the shared ones.
function flatten(node: Catalog | string, prefix: string, out: Record<string, string>): Record<string, string> {
  if (typeof node === 'string') out[prefix] = node;
  else for (const [k, v] of Object.entries(node)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
  return out;
}

export function labMessages(labId: string, locale: Locale): Record<string, string> {
  const catalog = CATALOGS[locale];
  const out: Record<string, string> = {};
  flatten(catalog.common ?? {}, 'common', out);
  const own = catalog[labId];
  if (own !== undefined) flatten(own, labId, out);
  return out;
}

// The units' forms for a count of one, by English unit, in each language.
const UNIT_ONE: Record<Locale, Record<string, string>> = {
  en: { samples: 'sample', runs: 'run', threads: 'thread', elements: 'element', bytes: 'byte' },
  es: { samples: 'muestra', runs: 'ejecución', threads: 'hilo', elements: 'elemento', bytes: 'byte' },
};

// The descriptor in `locale`, its findings' templates attached. English: the lab's own words.
export function localizeDescriptor(d: LabDescriptor, locale: Locale): LabDescriptor {
  const messages = labMessages(d.id, locale);
  const withOne = (p: LabDescriptor['parameters'][number]): LabDescriptor['parameters'][number] => {
    const one = UNIT_ONE[locale][p.unitId ?? p.unit];
    return one ? { ...p, unitOne: one } : p;
  };
  if (locale === 'en') return { ...d, parameters: d.parameters.map(withOne), messages };
  const text = labDescriptorsEs[d.id];
  if (!text) return { ...d, messages };
  const unit = (u: string): string => (unitsEs as Record<string, string>)[u] ?? u;
  return {
    ...d,
    title: text.title,
    summary: text.summary,
    explanation: text.explanation,
    lookFor: text.lookFor,
    parameters: d.parameters.map((p) => {
      const words = text.parameters[p.name] ?? (sharedParametersEs as Record<string, { label: string; description: string } | undefined>)[p.name];
      return withOne({ ...p, label: words?.label ?? p.label, description: words?.description ?? p.description, unit: unit(p.unit), unitId: p.unit });
    }),
    presets: d.presets.map((p) => ({ ...p, label: text.presets[p.id]?.label ?? p.label, description: text.presets[p.id]?.description ?? p.description })),
    series: d.series.map((s) => ({ ...s, label: messages[`${d.id}.series.${s.key}`] ?? s.label })),
    messages,
  };
}
