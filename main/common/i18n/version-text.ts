// A version a run recorded (its environment.versions), as the run page and the PDF show it: named in words from the
// app's catalog ("Built with CUDA"), a key this version does not know as recorded; the engine's "yes" for a build with
// CUDA in the reader's language.
import type { Translate } from './translate.ts';

export function versionRow(key: string, value: string, t: Translate): [label: string, value: string] {
  const id = `labs.environment.versions.${key}`;
  const label = t(id);
  return [label === id ? key : label, key === 'cudaBuild' && value === 'yes' ? t('labs.environment.yes') : value];
}
