// What a parameter's value means in the lab's terms, beside the raw number: 10^6 "= 1 M elements", 67108864 bytes
// "= 64 MiB", an N×N float32 matrix's size.
import type { ParameterDescriptor } from '../../../main/common/lab-descriptor.ts';
import { formatBytes, formatCount } from '../../../main/common/pure/format.ts';
import type { DraftValue } from '../../stores/lab-params.ts';

type Translate = (key: string, values: Record<string, unknown>) => string;

export function valueHint(param: ParameterDescriptor, value: DraftValue, t: Translate): string {
  if (typeof value !== 'number' || !Number.isFinite(value)) return '';
  switch (param.unitId ?? param.unit) {
    case 'log10 elements':
      return t('labs.params.hintElements', { count: formatCount(10 ** value) });
    case 'bytes':
      return t('labs.params.hintBytes', { size: formatBytes(value) });
    case 'elements':
      return value >= 1000 ? t('labs.params.hintElements', { count: formatCount(value) }) : '';
    case 'threads':
      return value === 0 ? t('labs.params.hintAllThreads', {}) : '';
    default:
      return '';
  }
}
