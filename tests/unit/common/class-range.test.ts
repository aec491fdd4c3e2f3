// The class's range for a figure and a student's figure against it (common/pure/claims.ts, classRange and placeAgainst),
// and how the teacher's table says it (common/pure/class-text.ts), over generated classes: a figure is said to lie above or
// below the class only where its whole interval lies beyond the range, never from its median alone; the range holds
// the middle half of the class; fewer than five students give no range; and the words, in English and Spanish, name
// the side and the range's own bounds.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { MIN_CLASS_STUDENTS, classRange, placeAgainst } from '../../../main/common/pure/claims.ts';
import { againstText } from '../../../main/common/pure/class-text.ts';
import { formatFindingValue } from '../../../main/common/pure/format.ts';
import { translator } from '../../../main/common/pure/i18n/index.ts';
import type { ClassNumber } from '../../../main/common/contract/classroom.ts';

const positive = fc.double({ min: 1e-3, max: 1e9, noNaN: true, noDefaultInfinity: true });
const classValues = fc.array(positive, { minLength: MIN_CLASS_STUDENTS, maxLength: 40 });
// An interval around a value: each side a factor away, or open.
const bounded = fc.record({ value: positive, below: fc.option(fc.double({ min: 1, max: 10, noNaN: true }), { nil: null }), above: fc.option(fc.double({ min: 1, max: 10, noNaN: true }), { nil: null }) }).map(({ value, below, above }) => ({
  value,
  low: below === null ? null : value / below,
  high: above === null ? null : value * above,
}));

function sortedQuartiles(values: number[]): { q1: number; q3: number } {
  const s = [...values].sort((a, b) => a - b);
  const at = (q: number): number => {
    const i = (s.length - 1) * q;
    const lo = s[Math.floor(i)] ?? 0;
    const hi = s[Math.ceil(i)] ?? lo;
    return lo + (i - Math.floor(i)) * (hi - lo);
  };
  return { q1: at(0.25), q3: at(0.75) };
}

describe('the class’s range', () => {
  it('holds the middle half of the class and its median, from five students up', () => {
    fc.assert(
      fc.property(classValues, (values) => {
        const range = classRange(values);
        expect(range).not.toBeNull();
        if (!range) return;
        // The quartiles of the logarithms are those of the values: the log is monotone.
        const { q1, q3 } = sortedQuartiles(values);
        expect(range.low).toBeLessThanOrEqual(q1 * (1 + 1e-9));
        expect(range.high).toBeGreaterThanOrEqual(q3 * (1 - 1e-9));
        expect(range.median).toBeGreaterThanOrEqual(range.low * (1 - 1e-9));
        expect(range.median).toBeLessThanOrEqual(range.high * (1 + 1e-9));
        expect(range.students).toBe(values.length);
      }),
    );
  });

  it('is not given for fewer than five students', () => {
    fc.assert(fc.property(fc.array(positive, { maxLength: MIN_CLASS_STUDENTS - 1 }), (values) => {
      expect(classRange(values)).toBeNull();
    }));
  });

  it('reaches one and a half times the middle half’s width beyond it, on a log scale: 200 k – 800 k gives 25 k – 6.4 M', () => {
    const range = classRange([200e3, 200e3, 400e3, 800e3, 800e3]);
    expect(range?.low).toBeCloseTo(25e3, 6);
    expect(range?.high).toBeCloseTo(6.4e6, 3);
  });
});

describe('a student’s figure against the class', () => {
  it('is above or below only where its whole interval lies beyond the range; any overlap, or a side open toward it, is not told apart', () => {
    fc.assert(
      fc.property(classValues, bounded, (values, x) => {
        const range = classRange(values);
        if (!range) return;
        const placed = placeAgainst(x, range);
        if (placed === 'above') expect(x.low !== null && x.low > range.high).toBe(true);
        if (placed === 'below') expect(x.high !== null && x.high < range.low).toBe(true);
        // Where the interval reaches into the range, or is open on the range's side, nothing is said.
        const reaches = (x.low === null || x.low <= range.high) && (x.high === null || x.high >= range.low);
        if (reaches) expect(placed).toBe('within');
        else expect(placed).not.toBe('within');
      }),
    );
  });

  it('is said in words that name the side and the range’s bounds, in English and in Spanish, and nothing where it is not told apart', () => {
    fc.assert(
      fc.property(classValues, bounded, (values, x) => {
        const range = classRange(values);
        if (!range) return;
        const against = placeAgainst(x, range);
        const n: ClassNumber = { finding: { id: 'cpu-rate', message: { key: 'x' }, value: x.value, unit: 'GFLOP/s', tone: 'info', interval: { low: x.low, high: x.high } }, against };
        for (const locale of ['en', 'es'] as const) {
          const text = againstText(n, range, translator(locale), locale);
          if (against === 'within') {
            expect(text).toBe('');
            continue;
          }
          expect(text).toContain(formatFindingValue(range.low, 'GFLOP/s', locale));
          expect(text).toContain(formatFindingValue(range.high, 'GFLOP/s', locale));
          const words = { en: { above: 'above', below: 'below' }, es: { above: 'por encima', below: 'por debajo' } }[locale];
          expect(text).toContain(words[against]);
          expect(text).not.toContain(words[against === 'above' ? 'below' : 'above']);
        }
      }),
    );
  });
});
