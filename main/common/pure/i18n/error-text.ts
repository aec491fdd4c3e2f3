// What went wrong, in the reader's language: an error by its code (the engine's own English message is read as it is
// in English, and in another language the code's sentence stands for it, so that no English reaches a Spanish reader),
// and why a point has no time (waived, cancelled or failed), from its reason's message where the record keeps one.
import type { ErrorPayload } from '../../errors.ts';
import { numberLocale, type Locale } from '../locale.ts';
import { renderMessage } from '../message.ts';
import type { Comparison } from '../../playground.ts';
import type { PointResult } from '../../run-record.ts';
import type { Translate } from './translate.ts';

// `locale`: the reader's; the language numbers are written in unless said (numberLocale).
// What the details name (a run id, a file, a parameter), in the order the catalog lists them.
const NAMED = ['runId', 'id', 'file', 'path', 'device', 'heldBy', 'parameter', 'argument', 'method'] as const;

export function errorText(e: Pick<ErrorPayload, 'code' | 'message' | 'details'>, t: Translate, locale: Locale = numberLocale()): string {
  if (locale === 'en') return e.message;
  const named = NAMED.flatMap((key) => {
    const value = e.details?.[key];
    return typeof value === 'string' && value !== '' ? [t(`errorDetails.${key}`, { value: value.slice(0, 200) })] : [];
  });
  const sentence = t(`errors.${e.code}`);
  return named.length ? `${sentence} (${named.join('; ')})` : sentence;
}

// Why a point has no time: its error, or its reason. In English, the reason as the record words it (the engine's own
// words, the most precise); in another language its message (`why`, of the "reasons" part); a point recorded before
// reasons were messages says the English it was recorded with. Empty for a measured point.
export function pointReason(p: Pick<PointResult, 'status' | 'reason' | 'why' | 'error'>, t: Translate, locale: Locale = numberLocale()): string {
  if (p.status === 'ok') return '';
  if (p.error) return errorText(p.error, t, locale);
  if (p.why && (locale !== 'en' || !p.reason)) return renderMessage(p.why, t, locale);
  return p.reason ?? '';
}

// Why a kernel run's comparison has no figure, as pointReason says it of a point: in English as stored, in another
// language from its message where the run keeps one; null where it has a figure and nothing went wrong.
export function comparisonReason(c: Pick<Comparison, 'error' | 'why'>, t: Translate, locale: Locale = numberLocale()): string | null {
  if (c.why && (locale !== 'en' || !c.error)) return renderMessage(c.why, t, locale);
  return c.error;
}
