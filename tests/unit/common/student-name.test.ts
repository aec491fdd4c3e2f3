// A student's name as the class keeps it: trimmed, 1 to 60 characters, refused with a control or invisible
// character anywhere in it, and one name whatever its case, its compatibility form or its spacing. Property tests
// over generated names, each refusal naming what is wrong.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { MAX_NAME_CHARS, describeNameProblem, nameKey, nameProblem, trimName } from '../../../main/common/pure/student-name.ts';

// Letters, digits and marks of several scripts, spaces inside: what a person's name is made of.
const NAME_CHARS = fc.constantFrom(...'AaBbÇçÉéÑñØøßŁłĞğЖжЯяΩωآبپ中文한글 -\'.·', ...'abcdefghijklmnopqrstuvwxyz');
const nameOf = (min: number, max: number): fc.Arbitrary<string> =>
  fc.array(NAME_CHARS, { minLength: min, maxLength: max }).map((chars) => chars.join('')).filter((s) => trimName(s).length > 0 && [...trimName(s)].length >= min);
// C0, DEL, C1, and the characters that reorder or hide text.
const REFUSED = fc.constantFrom('\u0000', '\u0007', '\u001b', '\u007f', '\u0085', '\u009b', '\u200b', '\u200e', '\u202e', '\u2066', '\u2028', '\ufeff', '\u2060');

describe('a student name', () => {
  it('is accepted with 1 to 60 characters of names, and kept trimmed', () => {
    fc.assert(
      fc.property(nameOf(1, MAX_NAME_CHARS), fc.constantFrom('', ' ', '\t', '  \u00a0'), (name, pad) => {
        const raw = `${pad}${name}${pad}`;
        expect(nameProblem(raw)).toBeNull();
        expect(trimName(raw)).toBe(name.trim());
      }),
    );
  });

  it('is refused past 60 characters, counted as a person counts them (code points, not UTF-16 units)', () => {
    fc.assert(
      fc.property(fc.integer({ min: MAX_NAME_CHARS + 1, max: 400 }), fc.constantFrom('a', 'é', '中', '😀'), (n, c) => {
        const problem = nameProblem(c.repeat(n));
        expect(problem).toEqual({ reason: 'too-long', chars: n });
        expect(describeNameProblem(problem ?? { reason: 'empty' })).toContain(`${n} characters`);
      }),
    );
    // 60 emoji are 120 UTF-16 units and 60 characters: accepted.
    expect(nameProblem('😀'.repeat(60))).toBeNull();
  });

  it('is refused with a control or invisible character anywhere, naming where and which', () => {
    fc.assert(
      fc.property(nameOf(2, 30), REFUSED, fc.nat(), (name, bad, at) => {
        const chars = [...trimName(name)];
        const i = 1 + (at % (chars.length - 1));
        chars.splice(i, 0, bad);
        const problem = nameProblem(chars.join(''));
        expect(problem?.reason).toBe('control-character');
        if (problem?.reason === 'control-character') {
          expect(problem.position).toBe(i + 1);
          expect(problem.codePoint).toBe(`U+${(bad.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`);
        }
      }),
    );
  });

  it('is refused when nothing is left once trimmed', () => {
    for (const raw of ['', ' ', '\t\n', '\u3000\u00a0']) expect(nameProblem(raw)).toEqual({ reason: 'empty' });
  });

  it('is a 10 kB name refused at once as too long', () => {
    expect(nameProblem('<b>x</b>'.repeat(1280))).toMatchObject({ reason: 'too-long' });
  });

  it('is one name whatever its case, compatibility form or spacing', () => {
    fc.assert(
      fc.property(nameOf(1, 40), (name) => {
        expect(nameKey(name.toUpperCase())).toBe(nameKey(name.toLowerCase()));
        expect(nameKey(`  ${name.replace(/ /g, '   ')} `)).toBe(nameKey(name));
      }),
    );
    expect(nameKey('Ａｎａ')).toBe(nameKey('ana'));
    expect(nameKey('Straße')).toBe(nameKey('STRASSE'));
    // Composed and decomposed accents.
    expect(nameKey('Jos\u00e9')).toBe(nameKey('Jose\u0301'));
    expect(nameKey('Ana')).not.toBe(nameKey('Anna'));
  });
});
