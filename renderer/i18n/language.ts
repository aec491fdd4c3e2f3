// Which language the app starts in: the one the user chose before (remembered on this computer), else the first of
// the browser's preferred languages that GPU Lab speaks (Electron passes the system's), else English.
import { isLocale, pickLocale, type Locale } from '../../main/common/pure/locale.ts';

export const LANGUAGE_KEY = 'gpu-lab.language';

// The browser's list in order of preference: ["fr-FR", "es-ES", "en"] starts in Spanish, French being unspoken here.
export function preferredLocale(languages: readonly string[]): Locale {
  for (const tag of languages) {
    const locale = pickLocale(tag);
    // pickLocale answers English for a language it lacks: only a tag that really is English counts as English.
    if (tag.trim().toLowerCase().startsWith(locale)) return locale;
  }
  return 'en';
}

export function initialLocale(stored: string | null, languages: readonly string[]): Locale {
  return isLocale(stored) ? stored : preferredLocale(languages);
}

// Each language's name in itself, as a switch between languages shows them.
export const LANGUAGE_NAMES: Record<Locale, string> = { en: 'English', es: 'Español' };
