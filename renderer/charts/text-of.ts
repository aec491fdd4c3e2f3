// The shape of a second language's catalog: the same keys as English, any words (a missing or extra key fails to
// compile; tests/unit/renderer/i18n-catalogs.test.ts checks the named values of each message as well).
export type TextOf<T> = { readonly [K in keyof T]: T[K] extends string ? string : TextOf<T[K]> };
