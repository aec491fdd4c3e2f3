// The names of downloaded files: "GPU Lab – Matrix product – 2026-11-25.pdf", in the app's language, and for any lab
// title at all (generated ones: slashes, colons, control characters, emoji, half surrogate pairs, 300 characters) a
// name Windows, macOS and Linux all accept, that still carries the lab and the day.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { comparisonFileName, fileDay, labsFileName, runFileName, safeFileName } from '../../../main/common/pure/file-name.ts';
import { translator } from '../../../main/common/pure/i18n/index.ts';

const en = translator('en');
const es = translator('es');

// What any of the three systems refuses: a forbidden character, a control character, a lone surrogate, a leading
// or trailing space or dot, a name Windows keeps for a device, more than 255 bytes.
function problems(name: string): string[] {
  const found: string[] = [];
  if (/[<>:"/\\|?*\p{Cc}]/u.test(name)) found.push('forbidden character');
  if (/\p{Cs}/u.test(name)) found.push('lone surrogate');
  if (/^[\s.]|[\s.]$/u.test(name)) found.push('leading or trailing space or dot');
  if (/^(con|prn|aux|nul|com\d|lpt\d)(\.|$)/i.test(name)) found.push('reserved');
  if (new TextEncoder().encode(name).length > 255) found.push('longer than 255 bytes');
  return found;
}

// A title as a file name shows it: forbidden characters as spaces, spaces run together, ends trimmed.
const shown = (title: string): string =>
  title
    .replace(/[<>:"/\\|?*\p{Cc}\p{Cs}\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu, ' ')
    .replace(/\s+/gu, ' ')
    .trim();

// Characters a file name trips over, half surrogate pairs included, mixed with any others.
const awkward = fc.string({ unit: fc.oneof(fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }), fc.constantFrom('\ud800', '\udfff', ':', '/', '.', ' ', '\u202e', 'CON')), maxLength: 120 });
const title = fc.oneof(awkward, fc.string({ unit: 'binary', maxLength: 300 }), fc.string({ unit: 'grapheme', maxLength: 80 }), fc.constantFrom('Producto de matrices', 'a/b: c?', '...', 'CON', ' \u202eexe.jpg'));
// Any instant from 1970 to 2100, as a record stores it.
const started = fc.integer({ min: 0, max: 4_102_444_800_000 }).map((ms) => new Date(ms).toISOString());

describe('names for people', () => {
  it('names a run by its lab and the day it started, in the app’s language', () => {
    const run = { lab: 'Matrix product', createdAt: '2026-11-25T10:00:00' };
    expect(runFileName(run, 'pdf', en)).toBe('GPU Lab – Matrix product – 2026-11-25.pdf');
    expect(runFileName(run, 'json', en)).toBe('GPU Lab – Matrix product – 2026-11-25.json');
    expect(runFileName(run, 'csv', en)).toBe('GPU Lab – Matrix product – 2026-11-25.csv');
    expect(runFileName(run, 'csv-samples', en)).toBe('GPU Lab – Matrix product – 2026-11-25 – samples.csv');
    expect(runFileName({ ...run, lab: 'Producto de matrices' }, 'csv-samples', es)).toBe('GPU Lab – Producto de matrices – 2026-11-25 – muestras.csv');
  });

  it('names two runs compared by their lab and both days, or both labs', () => {
    const a = { lab: 'Matrix product', createdAt: '2026-11-25T10:00:00' };
    const b = { lab: 'Matrix product', createdAt: '2026-11-23T09:00:00' };
    expect(comparisonFileName(a, b, en)).toBe('GPU Lab – Matrix product – 2026-11-25 vs 2026-11-23.pdf');
    expect(comparisonFileName({ ...a, lab: 'Producto de matrices' }, { ...b, lab: 'Producto de matrices' }, es)).toBe(
      'GPU Lab – Producto de matrices – 2026-11-25 frente a 2026-11-23.pdf',
    );
    expect(comparisonFileName(a, { ...b, lab: 'Data types' }, en)).toBe('GPU Lab – Matrix product 2026-11-25 vs Data types 2026-11-23.pdf');
  });

  it('takes the colon out of a device’s id', () => {
    expect(labsFileName('cuda:0', new Date('2026-11-25T10:00:00'), en)).toBe('GPU Lab – every lab – cuda 0 – 2026-11-25.pdf');
  });

  it('dates a run by the day it started where the reader is', () => {
    const instant = '2026-11-25T23:30:00Z';
    const local = new Date(instant);
    expect(fileDay(instant)).toBe(`${local.getFullYear()}-${String(local.getMonth() + 1).padStart(2, '0')}-${String(local.getDate()).padStart(2, '0')}`);
    expect(fileDay('not a date')).toBe('');
  });

  it('gives a valid name that carries the lab and the day, whatever the lab is called', () => {
    fc.assert(
      fc.property(title, started, fc.constantFrom('pdf', 'json', 'csv', 'csv-samples') as fc.Arbitrary<'pdf' | 'json' | 'csv' | 'csv-samples'>, (lab, createdAt, kind) => {
        const name = runFileName({ lab, createdAt }, kind, en);
        expect(problems(name)).toEqual([]);
        expect(name.startsWith('GPU Lab – ')).toBe(true);
        expect(name.endsWith(kind === 'pdf' ? '.pdf' : kind === 'json' ? '.json' : '.csv')).toBe(true);
        const lead = [...shown(lab)].slice(0, 40).join('').trim();
        // A title cut to fit 255 bytes keeps its beginning; the day then falls off the end with the rest.
        const whole = new TextEncoder().encode(shown(lab)).length < 200;
        expect(name).toContain(lead);
        if (whole) expect(name).toContain(fileDay(createdAt));
      }),
      { numRuns: 500 },
    );
  });

  it('gives two runs compared a valid name with both days', () => {
    fc.assert(
      fc.property(title, started, started, (lab, first, second) => {
        const name = comparisonFileName({ lab, createdAt: first }, { lab, createdAt: second }, es);
        expect(problems(name)).toEqual([]);
        if (new TextEncoder().encode(shown(lab)).length < 200) expect(name).toContain(`${fileDay(first)} frente a ${fileDay(second)}`);
      }),
      { numRuns: 300 },
    );
  });

  it('mends any name into one every system accepts', () => {
    fc.assert(
      fc.property(fc.oneof(awkward, fc.string({ unit: 'binary', maxLength: 400 })), fc.string({ maxLength: 6 }), (stem, extension) => {
        expect(problems(safeFileName(stem, extension))).toEqual([]);
      }),
      { numRuns: 500 },
    );
    expect(safeFileName('CON', 'txt')).toBe('_CON.txt');
    expect(safeFileName('  ..hidden. ', 'pdf')).toBe('hidden.pdf');
    expect(safeFileName('a/b\\c:d*e?f"g<h>i|j', 'pdf')).toBe('a b c d e f g h i j.pdf');
    expect(safeFileName('', 'pdf')).toBe('GPU Lab.pdf');
  });
});
