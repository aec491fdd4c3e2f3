// The playground's exercises in two languages: the Spanish text says everything the English one says, item by item
// (the same exercises, paragraphs, hints, kernels and built-ins), says it in Spanish, and keeps every code identifier.
import { describe, expect, it } from 'vitest';

import { EXERCISE_IDS } from '../../../main/common/playground.ts';
import { exercises as playgroundEn, type ExerciseText } from '../../../main/common/pure/i18n/en/exercises.ts';
import { exercises as playgroundEs } from '../../../main/common/pure/i18n/es/exercises.ts';

// Every string of an exercise, each under a name that says where it is.
function items(text: ExerciseText): Map<string, string> {
  const out = new Map<string, string>([
    ['title', text.title],
    ['sizeLabel', text.sizeLabel],
    ['work', text.work],
  ]);
  text.statement.forEach((p, i) => out.set(`statement[${i}]`, p));
  text.hints.forEach((h, i) => out.set(`hints[${i}]`, h));
  for (const [id, k] of Object.entries(text.kernels)) {
    out.set(`kernels.${id}.title`, k.title);
    out.set(`kernels.${id}.note`, k.note);
  }
  for (const [id, b] of Object.entries(text.builtins)) out.set(`builtins.${id}`, b);
  return out;
}

// A string made only of identifiers and product names ("cuBLAS SGEMM") may read the same in both languages.
function identifiersOnly(s: string): boolean {
  return s.split(/\s+/).every((w) => /^[A-Za-z_][\w.<>]*$/.test(w) && /[_.\d]|.[A-Z]/.test(w));
}

const IDENTIFIER = /\b(__\w+|\w+\.\w+|float4|double2|atomicAdd|__shfl_down_sync)\b/g;

// The code identifiers of a string. A decimal number ("3.5") matches the pattern too, but Spanish writes it "3,5".
function identifiers(s: string): string[] {
  return [...new Set([...s.matchAll(IDENTIFIER)].map((m) => m[1] ?? '').filter((t) => !/^\d+\.\d+$/.test(t)))];
}

describe('the playground exercises in English and Spanish', () => {
  it('has the same exercises in both languages', () => {
    expect(Object.keys(playgroundEn).sort()).toEqual([...EXERCISE_IDS].sort());
    expect(Object.keys(playgroundEs).sort()).toEqual([...EXERCISE_IDS].sort());
  });

  describe.each([...EXERCISE_IDS])('%s', (id) => {
    const en = playgroundEn[id];
    const es = playgroundEs[id];
    const enItems = items(en);
    const esItems = items(es);

    it('has the same keys, paragraphs, hints, kernels and built-ins', () => {
      expect(Object.keys(es).sort()).toEqual(Object.keys(en).sort());
      expect(es.statement).toHaveLength(en.statement.length);
      expect(es.hints).toHaveLength(en.hints.length);
      expect(Object.keys(es.kernels).sort()).toEqual(Object.keys(en.kernels).sort());
      expect(Object.keys(es.builtins).sort()).toEqual(Object.keys(en.builtins).sort());
      expect([...esItems.keys()].sort()).toEqual([...enItems.keys()].sort());
    });

    it('says every item in Spanish', () => {
      const same = [...enItems].filter(([key, text]) => esItems.get(key) === text && !identifiersOnly(text)).map(([key]) => key);
      expect(same, 'items left in English').toEqual([]);
      for (const [key, text] of esItems) expect(text.trim(), `${id}.${key} is empty`).not.toBe('');
    });

    it('keeps every code identifier of the English text', () => {
      const missing = [...enItems].flatMap(([key, text]) =>
        identifiers(text)
          .filter((token) => !identifiers(esItems.get(key) ?? '').includes(token))
          .map((token) => `${key}: ${token}`),
      );
      expect(missing).toEqual([]);
    });
  });

  it('finds the identifiers it looks for', () => {
    expect(identifiers('i = blockIdx.x · blockDim.x, then __syncthreads() and atomicAdd on float4, a = 3.5')).toEqual([
      'blockIdx.x',
      'blockDim.x',
      '__syncthreads',
      'atomicAdd',
      'float4',
    ]);
    expect(identifiersOnly('cuBLAS SGEMM')).toBe(true);
    expect(identifiersOnly('Elements (n)')).toBe(false);
  });
});
