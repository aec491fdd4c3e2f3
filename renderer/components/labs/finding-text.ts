// A finding in the reader's language: its message rendered with the templates its lab's descriptor carries (main
// sends them in the language asked for), its numbers in the reader's locale; a finding recorded before findings were
// messages, or one whose template this version lacks, keeps the English it was recorded with.
import type { Locale } from '../../../main/common/pure/locale.ts';
import { renderMessage } from '../../../main/common/pure/message.ts';
import type { Finding } from '../../../main/common/run-record.ts';
import { flatTranslate } from '../../../main/common/pure/i18n/translate.ts';

// How the findings of one lab read in `locale`, rendered from the templates its descriptor carries (a finding is
// derived again from its points whenever a run is read, so its templates are those of this version).
export function findingReader(messages: Readonly<Record<string, string>> | undefined, locale: Locale): (f: Finding) => string {
  const t = flatTranslate(messages ?? {}, locale);
  return (f) => renderMessage(f.message, t, locale);
}
