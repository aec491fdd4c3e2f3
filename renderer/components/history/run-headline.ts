// What tells one stored run from another in the history: the parameters it ran with where they differ from its
// lab's defaults ("Matrix sizes N: 100, 500, 1000"), and the number its lab's headline finding is about, written as
// the finding's unit says ("7.36×", "978.5 GFLOP/s", "N ≈ 330": a break-even size read between two measured sizes, to two significant digits as its finding says it).
import { formatBytes, formatCount, formatMs, formatPercent, formatRate, formatTimes, sig } from '../../../main/common/pure/format.ts';
import { paramValueText } from '../../../main/common/pure/i18n/param-text.ts';
import type { Translate } from '../../../main/common/pure/i18n/translate.ts';
import type { LabDescriptor, ParamValues } from '../../../main/common/lab-descriptor.ts';
import type { Locale } from '../../../main/common/pure/locale.ts';
import type { Finding } from '../../../main/common/run-record.ts';

export interface ChangedParam {
  name: string;
  label: string;
  value: string;
}

// In the lab's order; a parameter the lab gained after the run has no value there and is no change.
export function changedParams(params: ParamValues, lab: LabDescriptor, t: Translate, locale: Locale): ChangedParam[] {
  return lab.parameters.flatMap((p) => {
    const value = params[p.name];
    if (value === undefined || JSON.stringify(value) === JSON.stringify(p.default)) return [];
    return [{ name: p.name, label: p.label, value: paramValueText(p, value, t, locale) }];
  });
}

// The headline's number, or null where the finding has none (a break-even beyond the sizes measured says so in words).
export function headlineNumber(f: Pick<Finding, 'value' | 'unit'>, t: Translate, locale: Locale): string | null {
  const v = f.value;
  if (v === null || !Number.isFinite(v)) return null;
  switch (f.unit) {
    case 'times':
      return formatTimes(v, locale);
    case 'GB/s':
    case 'GFLOP/s':
    case 'GOP/s':
      return formatRate(v, f.unit, locale);
    case 'share':
      return formatPercent(v, locale);
    case 'N':
      return t('history.headline.n', { n: String(Math.max(1, Math.round(Number(v.toPrecision(2))))) });
    case 'elements':
      return t('history.headline.elements', { count: formatCount(v, locale) });
    case 'bytes':
      return formatBytes(v, locale);
    case 'ms':
      return formatMs(v, locale);
    case 'points':
      return t('history.headline.points', { count: v }, v);
    case 'none':
      return sig(v, 3, locale);
  }
}
