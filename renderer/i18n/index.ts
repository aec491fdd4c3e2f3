// Every string the renderer shows comes from a message catalog (DESIGN §10): English now, Spanish as a second
// catalog of the same keys. Lab titles, explanations and findings come from main with the run's data.
import { createI18n } from 'vue-i18n';

import { en } from './en/index.ts';

export type MessageSchema = typeof en;

export const i18n = createI18n<[MessageSchema], 'en', false>({
  legacy: false,
  locale: 'en',
  fallbackLocale: 'en',
  messages: { en },
});
