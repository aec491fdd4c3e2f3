// The language of the report being written, for the number formatting it shares with the app (main/common/pure/format.ts
// and the rest of the one formatter, main/common/pure/format.ts, read numberLocale()). The app's server may write two reports at once, one in Spanish
// and one in English, whose awaits interleave: a process-wide setNumberLocale would let one write the other's
// numbers. Each report runs inside its own AsyncLocalStorage context instead, which numberLocale() reads through
// the source installed here; outside a report the process-wide setting (the CLI's --lang) applies.
import { AsyncLocalStorage } from 'node:async_hooks';

import { setNumberLocaleSource, type Locale } from '../common/pure/locale.ts';

const writing = new AsyncLocalStorage<Locale>();
let installed = false;

function install(): void {
  if (installed) return;
  setNumberLocaleSource(() => writing.getStore());
  installed = true;
}

// `write` and everything it awaits formats its numbers in `locale`.
export function inReportLocale<T>(locale: Locale, write: () => T): T {
  install();
  return writing.run(locale, write);
}
