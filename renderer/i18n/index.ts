// Every string the renderer shows comes from a message catalog (ARCHITECTURE.md, "Where to add"), one per language with the same keys.
// Lab titles, explanations and findings come from main, in the language asked for, with the run's data. The language
// itself is chosen by stores/language.ts.
import { createI18n } from 'vue-i18n';

import type { Locale } from '../../main/common/locale.ts';
import { en } from './en/index.ts';
import { es } from './es/index.ts';

export type MessageSchema = typeof en;

export const i18n = createI18n<[MessageSchema], Locale, false>({
  legacy: false,
  locale: 'en',
  fallbackLocale: 'en',
  messages: { en, es },
});
