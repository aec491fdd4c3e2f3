// Break-even labels (and reference lines' labels) are placed where their text crosses no series line and no marker:
// the first free candidate place beside the line, the least crossed one where none is free. Generated series
// geometry, graded by tests/unit/renderer/charts/geometry.ts's own intersection tests; then the marks plugin on a
// chart of known geometry.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import type { Area, Box, Dot, Segment } from '../../../../main/common/pure/charts/label-placement.ts';
import { alongHorizontal, besideVertical, placeLabel } from '../../../../main/common/pure/charts/label-placement.ts';
import type { MarkChart } from '../../../../main/common/pure/charts/marks-plugin.ts';
import { placeMarkLabels } from '../../../../main/common/pure/charts/marks-plugin.ts';
import { boxesTouch, hits } from './geometry.ts';

const AREA: Area = { left: 60, top: 40, right: 780, bottom: 360 };

const pointIn = fc.record({ x: fc.double({ min: AREA.left, max: AREA.right, noNaN: true }), y: fc.double({ min: AREA.top, max: AREA.bottom, noNaN: true }) });

// Up to six series, each a line through 2 to 15 points left to right, its markers 3.5 px with 2 px clear around them.
const seriesGeometry = fc.array(fc.array(pointIn, { minLength: 2, maxLength: 15 }), { minLength: 0, maxLength: 6 }).map((lines) => {
  const segments: Segment[] = [];
  const dots: Dot[] = [];
  for (const line of lines) {
    const sorted = [...line].sort((a, b) => a.x - b.x);
    sorted.forEach((p, i) => {
      dots.push({ x: p.x, y: p.y, r: 5.5 });
      const next = sorted[i + 1];
      if (next) segments.push({ x1: p.x, y1: p.y, x2: next.x, y2: next.y });
    });
  }
  return { segments, dots };
});

const labelSize = fc.record({ width: fc.double({ min: 40, max: 240, noNaN: true }), height: fc.constant(14) });

function expectFirstFreeOrLeastCrossed(candidates: Box[], o: { segments: Segment[]; dots: Dot[] }): void {
  const chosen = placeLabel(candidates, { ...o, boxes: [] });
  if (candidates.length === 0) {
    expect(chosen).toBeNull();
    return;
  }
  if (!chosen) throw new Error('no place chosen among candidates');
  const counts = candidates.map((c) => hits(c, o));
  const firstFree = counts.indexOf(0);
  if (firstFree >= 0) {
    expect(hits(chosen.box, o), 'a free place existed, but the label crosses a line or a marker').toBe(0);
    expect(chosen.box).toEqual(candidates[firstFree]);
  } else {
    expect(hits(chosen.box, o)).toBe(Math.min(...counts));
  }
}

describe('placing a label clear of the series', () => {
  it('beside a break-even line: the first free place, else the least crossed', () => {
    fc.assert(
      fc.property(seriesGeometry, fc.double({ min: AREA.left, max: AREA.right, noNaN: true }), labelSize, (o, x, size) => {
        const candidates = besideVertical(x, size, AREA);
        for (const c of candidates) {
          // Beside the line, never over it, and inside the plot.
          expect(c.left + c.width <= x || c.left >= x).toBe(true);
          expect(c.left).toBeGreaterThanOrEqual(AREA.left);
          expect(c.left + c.width).toBeLessThanOrEqual(AREA.right);
          expect(c.top).toBeGreaterThanOrEqual(AREA.top);
          expect(c.top + c.height).toBeLessThanOrEqual(AREA.bottom);
        }
        expectFirstFreeOrLeastCrossed(candidates, o);
      }),
      { numRuns: 500 },
    );
  });

  it('along a reference line: the first free place, else the least crossed', () => {
    fc.assert(
      fc.property(seriesGeometry, fc.double({ min: AREA.top, max: AREA.bottom, noNaN: true }), labelSize, (o, y, size) => {
        const candidates = alongHorizontal(y, size, AREA);
        for (const c of candidates) expect(c.top + c.height <= y || c.top >= y).toBe(true);
        expectFirstFreeOrLeastCrossed(candidates, o);
      }),
      { numRuns: 300 },
    );
  });

  it('finds a free place on sparse plots: a line or two never cover every place beside a break-even', () => {
    fc.assert(
      fc.property(fc.array(fc.array(pointIn, { minLength: 2, maxLength: 4 }), { minLength: 1, maxLength: 2 }), fc.double({ min: AREA.left + 130, max: AREA.right - 130, noNaN: true }), (lines, x) => {
        const segments: Segment[] = lines.flatMap((line) => {
          const s = [...line].sort((a, b) => a.x - b.x);
          return s.slice(1).map((p, i) => ({ x1: s[i]?.x ?? p.x, y1: s[i]?.y ?? p.y, x2: p.x, y2: p.y }));
        });
        const chosen = placeLabel(besideVertical(x, { width: 120, height: 14 }, AREA), { segments, dots: [], boxes: [] });
        if (!chosen) throw new Error('no place chosen');
        expect(hits(chosen.box, { segments, dots: [] })).toBe(0);
      }),
      { numRuns: 300 },
    );
  });
});

// A chart of known geometry as the marks plugin reads it: a linear x axis of 100 px per unit from x = 0 at 60 px, a
// y axis of 1 px per unit upwards from 360 px.
function fakeChart(lines: { x: number; y: number }[][]): MarkChart {
  const x = { getPixelForValue: (v: number) => 60 + v * 100 };
  const y = { getPixelForValue: (v: number) => 360 - v };
  return {
    width: 800,
    scales: { x, y },
    chartArea: AREA,
    data: { datasets: lines.map(() => ({ borderWidth: 2, pointRadius: 3.5 })) },
    isDatasetVisible: () => true,
    getDatasetMeta: (i) => ({ type: 'line', data: (lines[i] ?? []).map((p) => ({ x: x.getPixelForValue(p.x), y: y.getPixelForValue(p.y), options: { radius: 3.5 } })) }),
  };
}

describe('the marks plugin', () => {
  const measure = (text: string) => text.length * 6;

  it('moves a break-even label off a line that runs along the foot of the plot', () => {
    // A series along the bottom of the plot, where the first place beside a break-even line is.
    const chart = fakeChart([[{ x: 0, y: 10 }, { x: 7.2, y: 10 }]]);
    const placed = placeMarkLabels(chart, { vertical: [{ x: 3, label: 'GPU resident: N = 332', colour: '#000' }] }, measure);
    const box = placed.vertical[0]?.box;
    if (!box) throw new Error('no label placed');
    expect(hits(box, { segments: [{ x1: 60, y1: 350, x2: 780, y2: 350 }], dots: [{ x: 60, y: 350, r: 5.5 }, { x: 780, y: 350, r: 5.5 }] })).toBe(0);
  });

  it('keeps two break-evens close together from writing over each other, and over the other’s line', () => {
    const chart = fakeChart([]);
    const placed = placeMarkLabels(
      chart,
      {
        vertical: [
          { x: 3, label: 'add GPU resident: 136 k elements', colour: '#000' },
          { x: 3.2, label: 'exp GPU resident: 177 k elements', colour: '#000' },
        ],
      },
      measure,
    );
    const [a, b] = placed.vertical.map((l) => l?.box);
    if (!a || !b) throw new Error('labels not placed');
    expect(boxesTouch(a, b)).toBe(false);
    expect(hits(a, { segments: [{ x1: 380, y1: AREA.top, x2: 380, y2: AREA.bottom }], dots: [] })).toBe(0);
    expect(hits(b, { segments: [{ x1: 360, y1: AREA.top, x2: 360, y2: AREA.bottom }], dots: [] })).toBe(0);
  });

  it('says a label in its short form where the whole of it finds no free place', () => {
    // Two break-evens a few pixels apart on a plot 140 pixels wide: the long labels cannot both fit.
    const narrow: MarkChart = { ...fakeChart([]), chartArea: { left: 60, right: 200, top: 20, bottom: 60 } };
    const placed = placeMarkLabels(
      narrow,
      {
        vertical: [
          { x: 0.5, label: 'PyTorch GPU resident: 192 k elements', short: '192 k', colour: '#000' },
          { x: 0.6, label: 'GPU resident: 426 k elements', short: '426 k', colour: '#000' },
        ],
      },
      measure,
    );
    const [a, b] = placed.vertical;
    if (!a || !b) throw new Error('labels not placed');
    expect([a.text, b.text]).toEqual(['192 k', '426 k']);
    expect(boxesTouch(a.box, b.box)).toBe(false);
  });

  it('places no label for a mark off the plot', () => {
    const placed = placeMarkLabels(fakeChart([]), { vertical: [{ x: 99, label: 'far', colour: '#000' }], horizontal: [{ y: 1000, label: 'high', colour: '#000' }] }, measure);
    expect(placed).toEqual({ vertical: [null], horizontal: [null] });
  });
});
