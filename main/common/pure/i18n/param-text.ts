// A lab parameter's value as a reader reads it, in the reader's language: a list joined, bytes as KiB/MiB/GiB, a
// number with the language's decimal comma or point, a count with its unit in the right plural ("20 samples", "1 run"), and the CPU threads' 0 (the engine's "use every
// core") as "all cores", never "0 threads". The history, a run's page and a comparison say a value alike.
import { formatBytes, unitFor } from '../format.ts';
import type { ParamValue, ParameterDescriptor } from '../../lab-descriptor.ts';
import { localizeDecimal } from '../locale.ts';
import type { Locale } from '../locale.ts';
import type { Translate } from './translate.ts';

type Described = Pick<ParameterDescriptor, 'unit'> & { unitId?: string; unitOne?: string };

export function paramValueText(p: Described, value: ParamValue, t: Translate, locale: Locale): string {
  if (Array.isArray(value)) return value.join(', ');
  const unit = p.unitId ?? p.unit;
  if (typeof value === 'number' && unit === 'threads' && value === 0) return t('labs.params.allCores');
  if (typeof value === 'number' && unit === 'bytes') return formatBytes(value, locale);
  const text = typeof value === 'number' ? localizeDecimal(String(value), locale) : value;
  const shown = unitFor(p, value, locale);
  return shown && typeof value === 'number' ? `${text} ${shown}` : text;
}
