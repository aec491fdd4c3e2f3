// Pure (no zod, no Node): the renderer renders findings with it too; run-record.ts holds the schema.
// A sentence as data: a message id and named values, rendered in the reader's language when it is shown. A finding is
// recorded this way, so that a run measured with the app in English reads in Spanish when opened in Spanish: the
// numbers and units stay data (with how to format them), the words come from the catalog of the language shown.
import { formatBytes, formatCount, formatInterval, formatMs, formatPercent, formatRate, formatTimes, formatWhole, sig, type RateUnit } from './format.ts';
import type { Locale } from './locale.ts';

// A number and the way it is written: a time in ms, a rate, a speedup, a size, a share, significant digits, a whole
// number, or a median's interval ("±1.3 %" or "[957.8 µs, 1.057 ms]", format.ts formatInterval).
export type NumberStyle = 'ms' | 'rate' | 'times' | 'sig' | 'count' | 'bytes' | 'percent' | 'int' | 'interval';

export interface FormattedNumber {
  num: number;
  as: NumberStyle;
  // The rate's unit in G-units ('rate' only).
  unit?: RateUnit;
  // Significant digits ('sig' only; 3 without).
  digits?: number;
  // The interval's ends in ms ('interval' only; `num` is the median).
  low?: number;
  high?: number;
}

// Two significant digits, as a break-even is known (format.ts formatBreakEven): 426 k → 430 k, N = 306.2 → 310.
const twoDigits = (x: number): number => Math.max(1, Math.round(Number(x.toPrecision(2))));

export type MessageValue = string | number | FormattedNumber | Message;

export interface Message {
  key: string;
  values?: Record<string, MessageValue>;
}

// The message a run's progress holds while the run waits for a device another run holds (main/engine/device-lock.ts):
// shown in its own words, not as a point being measured. Here, not in the contract, so that the renderer needs no zod.
export const WAITING_MESSAGE_KEY = 'common.run.waiting';

export function msg(key: string, values?: Record<string, MessageValue>): Message {
  return values ? { key, values } : { key };
}

// Constructors for the numbers of a message, so that a lab says what a number is and the reader's locale says how
// it reads.
export const n = {
  ms: (num: number): FormattedNumber => ({ num, as: 'ms' }),
  rate: (num: number, unit: RateUnit): FormattedNumber => ({ num, as: 'rate', unit }),
  times: (num: number): FormattedNumber => ({ num, as: 'times' }),
  sig: (num: number, digits = 3): FormattedNumber => ({ num, as: 'sig', digits }),
  count: (num: number): FormattedNumber => ({ num, as: 'count' }),
  bytes: (num: number): FormattedNumber => ({ num, as: 'bytes' }),
  percent: (fraction: number): FormattedNumber => ({ num: fraction, as: 'percent' }),
  int: (num: number): FormattedNumber => ({ num, as: 'int' }),
  interval: (median: number, low: number, high: number): FormattedNumber => ({ num: median, as: 'interval', low, high }),
  // A break-even: a matrix size N, or a count of elements.
  breakEvenN: (num: number): FormattedNumber => ({ num: twoDigits(num), as: 'int' }),
  breakEvenCount: (num: number): FormattedNumber => ({ num: twoDigits(num), as: 'count' }),
};

export function formatNumber(v: FormattedNumber, locale: Locale): string {
  switch (v.as) {
    case 'ms':
      return formatMs(v.num, locale);
    case 'rate':
      return formatRate(v.num, v.unit ?? 'GB/s', locale);
    case 'times':
      return formatTimes(v.num, locale);
    case 'sig':
      return sig(v.num, v.digits ?? 3, locale);
    case 'count':
      return formatCount(v.num, locale);
    case 'bytes':
      return formatBytes(v.num, locale);
    case 'percent':
      return formatPercent(v.num, locale);
    case 'int':
      return formatWhole(v.num, locale);
    case 'interval':
      return formatInterval(v.num, v.low ?? v.num, v.high ?? v.num, formatMs, locale);
  }
}

function isMessage(v: MessageValue): v is Message {
  return typeof v === 'object' && 'key' in v;
}

// How a message's template is found: vue-i18n's t in the renderer, a plain catalog lookup in main
// (main/common/pure/charts/catalog-translate.ts reads both alike). Plain numbers stay numbers, for plural forms.
export type MessageTranslate = (key: string, named: Record<string, string | number>) => string;

export function renderMessage(m: Message, t: MessageTranslate, locale: Locale): string {
  const named: Record<string, string | number> = {};
  for (const [name, v] of Object.entries(m.values ?? {})) {
    if (typeof v === 'string' || typeof v === 'number') named[name] = v;
    else if (isMessage(v)) named[name] = renderMessage(v, t, locale);
    else named[name] = formatNumber(v, locale);
  }
  return t(m.key, named);
}

// The names a template uses, "{name}" in any plural form: a catalog check compares them between languages.
export function placeholders(template: string): string[] {
  return [...new Set([...template.matchAll(/\{([A-Za-z_]\w*)\}/g)].map((m) => m[1] ?? ''))].sort();
}
