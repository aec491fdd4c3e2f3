// Every string the renderer shows comes from the message catalogs of main/common/pure/i18n (ARCHITECTURE.md, "Where to
// add"), the app's parts of them, one per language with the same keys.
// Lab titles, explanations and findings come from main, in the language asked for, with the run's data. The language
// itself is chosen by stores/language.ts.
import { createI18n } from 'vue-i18n';

import type { Locale } from '../../main/common/pure/locale.ts';
import { appMessages as en } from '../../main/common/pure/i18n/en/index.ts';
import { appMessages as es } from '../../main/common/pure/i18n/es/index.ts';

export type MessageSchema = typeof en;

export const i18n = createI18n<[MessageSchema], Locale, false>({
  legacy: false,
  locale: 'en',
  fallbackLocale: 'en',
  messages: { en, es },
});
