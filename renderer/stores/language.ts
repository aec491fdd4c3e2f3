// The language the app speaks: the user's choice, remembered on this computer, else the browser's (language.ts).
// A change reaches vue-i18n (the catalogs), <html lang> (screen readers and hyphenation) and the number locale of
// the shared formatting functions (decimal comma in Spanish); views built with the old numbers are rebuilt by App.vue.
import { defineStore } from 'pinia';
import { ref, watchEffect } from 'vue';

import { setNumberLocale, type Locale } from '../../main/common/pure/locale.ts';
import { i18n } from '../i18n/index.ts';
import { initialLocale, LANGUAGE_KEY } from '../i18n/language.ts';

function readStored(): string | null {
  try {
    return localStorage.getItem(LANGUAGE_KEY);
  } catch {
    return null;
  }
}

function store(locale: Locale): void {
  try {
    localStorage.setItem(LANGUAGE_KEY, locale);
  } catch {
    // Not kept; the language still holds for this page.
  }
}

export const useLanguageStore = defineStore('language', () => {
  const locale = ref<Locale>(initialLocale(readStored(), navigator.languages));
  watchEffect(() => {
    setNumberLocale(locale.value);
    i18n.global.locale.value = locale.value;
    document.documentElement.lang = locale.value;
  });

  // Only a choice the user makes is remembered: until then the app follows the browser's language.
  function choose(next: Locale): void {
    locale.value = next;
    store(next);
  }

  return { locale, choose };
});
