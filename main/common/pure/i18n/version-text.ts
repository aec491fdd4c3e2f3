// A version a run recorded (its environment.versions), as the run page and the PDF show it: named in words from the
// app's catalog ("Built with CUDA"), a key this version does not know as recorded; the engine's "yes" for a build with
// CUDA in the reader's language, and a CUDA library the loader could not open said in it too (host-reasons.ts), the
// loader's own error kept apart as it came (`detail`). The CPU's BLAS, which the host records in English, in the
// reader's words where the run's device list has them (its `blasWhat`, host/blas-host.ts).
import { libraryWhy } from '../host-reasons.ts';
import { numberLocale } from '../locale.ts';
import type { Locale } from '../locale.ts';
import { renderMessage } from '../message.ts';
import type { Message } from '../message.ts';
import type { Translate } from './translate.ts';

export interface VersionParts {
  label: string;
  value: string;
  detail: string | null;
}

const LIBRARIES = new Set(['cublas', 'nvrtc', 'nvml']);

export function versionParts(key: string, value: string, t: Translate, locale: Locale = numberLocale(), blasWhat?: Message | null): VersionParts {
  const id = `labs.environment.versions.${key}`;
  const label = t(id) === id ? key : t(id);
  if (key === 'blas' && blasWhat) return { label, value: renderMessage(blasWhat, (k, named) => t(k, named), locale), detail: null };
  if (key === 'cudaBuild' && value === 'yes') return { label, value: t('labs.environment.yes'), detail: null };
  const missing = LIBRARIES.has(key) && value.startsWith('not found: ') ? libraryWhy(value.slice('not found: '.length)) : null;
  if (!missing) return { label, value, detail: null };
  return { label, value: t('labs.environment.notFound', { why: renderMessage(missing.why, (k, named) => t(k, named), locale) }), detail: missing.detail };
}

export function versionRow(key: string, value: string, t: Translate, locale: Locale = numberLocale(), blasWhat?: Message | null): [label: string, value: string] {
  const parts = versionParts(key, value, t, locale, blasWhat);
  return [parts.label, parts.detail ? `${parts.value} (${parts.detail})` : parts.value];
}
