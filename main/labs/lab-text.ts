// The labs in the reader's language: a descriptor with its words replaced by the catalog's (titles, explanations,
// parameters, presets, series, units) and its findings' templates attached, and a finding rendered from its message.
// English descriptors are the labs' own. A finding may quote why points were waived: the "reasons" part of the
// catalogs is read beside the labs' words.
import { CATALOGS as ALL } from '../common/pure/i18n/index.ts';
import { catalogTranslate, type Catalog, type Translate } from '../common/pure/i18n/translate.ts';
import type { LabDescriptor } from '../common/lab-descriptor.ts';
import type { Locale } from '../common/pure/locale.ts';
import { msg, n, renderMessage, type Message } from '../common/pure/message.ts';
import type { Finding, PointResult } from '../common/run-record.ts';
import { unitsOne as unitsOneEn } from '../common/pure/i18n/en/lab-text.ts';
import { labDescriptors as labDescriptorsEs, sharedParameters as sharedParametersEs, units as unitsEs, unitsOne as unitsOneEs } from '../common/pure/i18n/es/lab-text.ts';

const CATALOGS: Record<Locale, Catalog> = { en: { ...ALL.en.labText, reasons: ALL.en.reasons }, es: { ...ALL.es.labText, reasons: ALL.es.reasons } };
const TRANSLATE: Record<Locale, Translate> = { en: catalogTranslate(CATALOGS.en, 'en'), es: catalogTranslate(CATALOGS.es, 'es') };

// A message of the labs' catalog in `locale` (a finding's sentence, a series label).
export function labMessage(m: Message, locale: Locale): string {
  return renderMessage(m, TRANSLATE[locale], locale);
}

// A finding as the reader reads it: its message in their language, else the English it was recorded with.
export function findingText(f: Finding, locale: Locale): string {
  return labMessage(f.message, locale);
}

// A point as the reader names it: its name (a message of its lab's catalog); for a point recorded before points had
// names, its series' words and its size where the lab sweeps one, else the label it was recorded with.
export function pointMessage(p: PointResult, lab?: LabDescriptor): Message | string {
  if (p.name) return p.name;
  const quantity = lab?.chart.x.quantity;
  if (!lab || p.x === null || !quantity || quantity === 'category' || !lab.series.some((s) => s.key === p.series)) return p.label;
  const size = quantity === 'matrix-n' ? msg('common.run.sizeN', { n: n.int(p.x) }) : quantity === 'elements' ? n.count(p.x) : n.bytes(p.x);
  return msg('common.run.point', { series: msg(`${lab.id}.series.${p.series}`), size });
}

export function pointText(p: PointResult, locale: Locale, lab?: LabDescriptor): string {
  const m = pointMessage(p, lab);
  return typeof m === 'string' ? m : labMessage(m, locale);
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
  flatten(catalog.reasons ?? {}, 'reasons', out);
  const own = catalog[labId];
  if (own !== undefined) flatten(own, labId, out);
  return out;
}

// The units' forms for a count of one, by English unit, in each language.
const UNIT_ONE: Record<Locale, Record<string, string>> = { en: unitsOneEn, es: unitsOneEs };

// The descriptor in `locale`, its findings' templates attached. English: the lab's words as it reads them from the
// English catalog (lab-words.ts).
export function localizeDescriptor(d: LabDescriptor, locale: Locale): LabDescriptor {
  const messages = labMessages(d.id, locale);
  const withOne = (p: LabDescriptor['parameters'][number]): LabDescriptor['parameters'][number] => {
    const one = UNIT_ONE[locale][p.unitId ?? p.unit];
    return one ? { ...p, unitOne: one } : p;
  };
  if (locale === 'en') return { ...d, parameters: d.parameters.map(withOne), messages, locale };
  const text = labDescriptorsEs[d.id];
  if (!text) return { ...d, messages, locale };
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
    series: d.series.map((s) => ({
      ...s,
      label: messages[`${d.id}.series.${s.key}`] ?? s.label,
      ...(s.inPanel !== undefined && s.panel !== undefined ? { inPanel: messages[`${d.id}.inPanel.${s.key.slice(s.panel.length + 1)}`] ?? s.inPanel } : {}),
    })),
    messages,
    locale,
  };
}
