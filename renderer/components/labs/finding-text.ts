// A finding in the reader's language: its message rendered with the templates its lab's descriptor carries (main
// sends them in the language asked for), its numbers in the reader's locale; a finding recorded before findings were
// messages, or one whose template this version lacks, keeps the English it was recorded with.
import type { Locale } from '../../../main/common/locale.ts';
import { renderMessage } from '../../../main/common/message.ts';
import type { Finding } from '../../../main/common/run-record.ts';
import { catalogTranslate, type Catalog } from '../../../main/common/i18n/translate.ts';

// The descriptor's templates are flat ("matmul-breakeven.findings.overtakes"); catalogTranslate reads a nested catalog
// (it splits a key on its dots), whose plural forms and named values are read as vue-i18n reads them.
export function nestCatalog(messages: Readonly<Record<string, string>>): Catalog {
  const root: Record<string, unknown> = {};
  for (const [key, template] of Object.entries(messages)) {
    const parts = key.split('.');
    const last = parts.pop() ?? key;
    let node = root;
    for (const part of parts) {
      const next = node[part];
      if (typeof next === 'object' && next !== null) node = next as Record<string, unknown>;
      else node = node[part] = {};
    }
    node[last] = template;
  }
  return root as Catalog;
}

// How the findings of one lab read in `locale`, rendered from the templates its descriptor carries (a finding is
// derived again from its points whenever a run is read, so its templates are those of this version).
export function findingReader(messages: Readonly<Record<string, string>> | undefined, locale: Locale): (f: Finding) => string {
  const t = catalogTranslate(nestCatalog(messages ?? {}), locale);
  return (f) => renderMessage(f.message, t, locale);
}
