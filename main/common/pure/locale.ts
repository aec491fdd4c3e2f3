// The languages GPU Lab speaks and how numbers read in each. English writes "1.08 TFLOP/s" and "1,980 MHz", Spanish
// "1,08 TFLOP/s" and "1980 MHz" (the decimal comma of Spain and most of Latin America; thousands grouped as each
// language groups them, Spanish from five digits: "12.345"). Exports (CSV, JSON) never go through here: they stay
// locale-neutral.

export const LOCALES = ['en', 'es'] as const;
export type Locale = (typeof LOCALES)[number];

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

// A language tag or a POSIX locale as the system gives it ("es-AR", "es_ES.UTF-8", "en-US", "C", "") → the language
// GPU Lab has for it, English where it has none.
export function pickLocale(tag: string | null | undefined): Locale {
  const language = (tag ?? '').trim().toLowerCase().split(/[-_.@]/)[0] ?? '';
  return isLocale(language) ? language : 'en';
}

// The system's language for a command-line process: LC_ALL, then LC_MESSAGES, then LANG, as POSIX orders them;
// LANGUAGE (GNU's list of preferences) is read first where it is set.
export function systemLocale(env: Record<string, string | undefined>): Locale {
  const first = env.LANGUAGE?.split(':').find((t) => t !== '');
  for (const tag of [first, env.LC_ALL, env.LC_MESSAGES, env.LANG]) {
    if (tag && tag !== 'C' && tag !== 'POSIX') return pickLocale(tag);
  }
  return 'en';
}

// The locale numbers are written in, for the formatting functions shared by main and the renderer: a process-wide
// setting (the CLI's --lang, the renderer's switch), or a source that main points at the request being served, so
// that two reports written at once in two languages do not mix.
let current: Locale = 'en';
// The request's locale where a source knows one (a report being written); undefined: the process-wide setting.
let source: () => Locale | undefined = () => undefined;

export function setNumberLocale(locale: Locale): void {
  current = locale;
}

export function setNumberLocaleSource(read: () => Locale | undefined): void {
  source = read;
}

export function numberLocale(): Locale {
  return source() ?? current;
}

// A number already written the English way ("1.08", "2.5e-7", "1.08 TFLOP/s") in the current locale: the decimal
// point between two digits becomes a comma in Spanish. Only for text produced by the formatting functions.
export function localizeDecimal(text: string, locale: Locale = numberLocale()): string {
  return locale === 'es' ? text.replace(/(\d)\.(\d)/g, '$1,$2') : text;
}
