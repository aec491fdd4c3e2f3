// The app's language: the one the user chose before, else the browser's first language GPU Lab speaks; a choice is
// remembered, and reaches the catalogs, <html lang> and the numbers (decimal comma in Spanish).
import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { nextTick } from 'vue';

import { numberLocale, setNumberLocale } from '../../../../main/common/pure/locale.ts';
import { formatRate } from '../../../../main/common/pure/format.ts';
import { i18n } from '../../../../renderer/i18n/index.ts';
import { initialLocale, LANGUAGE_KEY, preferredLocale } from '../../../../renderer/i18n/language.ts';
import { useLanguageStore } from '../../../../renderer/stores/language.ts';

describe('the language the app starts in', () => {
  it('is the browser’s first language GPU Lab speaks', () => {
    expect(preferredLocale(['es-ES', 'en'])).toBe('es');
    expect(preferredLocale(['es-419'])).toBe('es');
    expect(preferredLocale(['fr-FR', 'es-AR', 'en'])).toBe('es');
    expect(preferredLocale(['en-GB', 'es'])).toBe('en');
    expect(preferredLocale(['fr', 'de'])).toBe('en');
    expect(preferredLocale([])).toBe('en');
  });

  it('is the user’s earlier choice over the browser’s', () => {
    expect(initialLocale('en', ['es-ES'])).toBe('en');
    expect(initialLocale('es', ['en-US'])).toBe('es');
    expect(initialLocale('klingon', ['es-MX'])).toBe('es');
    expect(initialLocale(null, ['en-US'])).toBe('en');
  });
});

describe('the language store', () => {
  beforeEach(() => {
    localStorage.clear();
    setActivePinia(createPinia());
  });
  afterEach(() => {
    i18n.global.locale.value = 'en';
    setNumberLocale('en');
    localStorage.clear();
  });

  it('starts in the remembered language and switches catalogs, <html lang> and numbers together', async () => {
    localStorage.setItem(LANGUAGE_KEY, 'es');
    const language = useLanguageStore();
    expect(language.locale).toBe('es');
    expect(i18n.global.t('app.nav.history')).toBe('Historial');
    expect(document.documentElement.lang).toBe('es');
    expect(formatRate(2970, 'GB/s')).toBe('2,97 TB/s');

    language.choose('en');
    await nextTick();
    expect(i18n.global.t('app.nav.history')).toBe('History');
    expect(document.documentElement.lang).toBe('en');
    expect(numberLocale()).toBe('en');
    expect(localStorage.getItem(LANGUAGE_KEY)).toBe('en');
  });

  it('remembers only a choice, not the browser’s language it started with', () => {
    useLanguageStore();
    expect(localStorage.getItem(LANGUAGE_KEY)).toBeNull();
  });
});
