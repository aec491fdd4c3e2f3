// Where a label written over the plot goes (a break-even size beside its dashed line, a reference line's name): the
// first of its candidate places, in the order given, whose box crosses no series line, no marker and no label already
// placed; where every candidate crosses something, the one that crosses the fewest, a label already placed counting
// as more than any number of lines (text over a line still reads; text over text does not). Pure geometry in canvas
// pixels (y grows downwards), so that it is tested apart from Chart.js and the canvas.

export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

export interface Segment {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

// A marker: its centre and radius.
export interface Dot {
  x: number;
  y: number;
  r: number;
}

export interface Obstacles {
  segments: Segment[];
  dots: Dot[];
  boxes: Box[];
  // Labels already placed.
  texts?: Box[];
}

// What crossing a label weighs against crossing a line, a marker or a bar.
export const TEXT_CROSSING = 1000;

export interface Area {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

const right = (b: Box): number => b.left + b.width;
const bottom = (b: Box): number => b.top + b.height;

export function boxesOverlap(a: Box, b: Box): boolean {
  return a.left < right(b) && b.left < right(a) && a.top < bottom(b) && b.top < bottom(a);
}

// Whether the segment passes through the box (touching its edge counts): the segment clipped to the box's slab in x,
// then in y (Liang–Barsky), leaves something.
export function segmentHitsBox(s: Segment, b: Box): boolean {
  let t0 = 0;
  let t1 = 1;
  const dx = s.x2 - s.x1;
  const dy = s.y2 - s.y1;
  const clips: [number, number][] = [
    [-dx, s.x1 - b.left],
    [dx, right(b) - s.x1],
    [-dy, s.y1 - b.top],
    [dy, bottom(b) - s.y1],
  ];
  for (const [p, q] of clips) {
    if (p === 0) {
      if (q < 0) return false;
      continue;
    }
    const r = q / p;
    if (p < 0) {
      if (r > t1) return false;
      if (r > t0) t0 = r;
    } else {
      if (r < t0) return false;
      if (r < t1) t1 = r;
    }
  }
  return t0 <= t1;
}

export function dotHitsBox(d: Dot, b: Box): boolean {
  const nx = Math.min(Math.max(d.x, b.left), right(b));
  const ny = Math.min(Math.max(d.y, b.top), bottom(b));
  return (d.x - nx) ** 2 + (d.y - ny) ** 2 <= d.r ** 2;
}

// How many obstacles the box crosses, a label as TEXT_CROSSING of them.
export function crossings(box: Box, o: Obstacles): number {
  let n = 0;
  for (const s of o.segments) if (segmentHitsBox(s, box)) n++;
  for (const d of o.dots) if (dotHitsBox(d, box)) n++;
  for (const b of o.boxes) if (boxesOverlap(b, box)) n++;
  for (const b of o.texts ?? []) if (boxesOverlap(b, box)) n += TEXT_CROSSING;
  return n;
}

export function inside(box: Box, area: Area): boolean {
  return box.left >= area.left && box.top >= area.top && right(box) <= area.right && bottom(box) <= area.bottom;
}

// The first candidate that crosses nothing; else the first of those that cross the fewest. Null without candidates.
export function placeLabel(candidates: readonly Box[], obstacles: Obstacles): { box: Box; crossings: number } | null {
  let best: { box: Box; crossings: number } | null = null;
  for (const box of candidates) {
    const n = crossings(box, obstacles);
    if (n === 0) return { box, crossings: 0 };
    if (!best || n < best.crossings) best = { box, crossings: n };
  }
  return best;
}

// The places of a label beside a vertical line at `x`, `gap` pixels off it: at the foot of the plot, right of the line
// then left, then at its top, then every half-line up from the foot, each side in turn. Only those inside the area.
export function besideVertical(x: number, size: { width: number; height: number }, area: Area, gap = 3): Box[] {
  const sides = [x + gap, x - gap - size.width];
  const foot = area.bottom - gap - size.height;
  const head = area.top + gap;
  const rows = [foot, head];
  const step = Math.max(2, size.height / 2);
  for (let y = foot - step; y > head; y -= step) rows.push(y);
  return rows.flatMap((top) => sides.map((left) => ({ left, top, width: size.width, height: size.height }))).filter((b) => inside(b, area));
}

// The places of a label along a horizontal line at `y`: above it then below it, at the left end of the plot, then its
// right end, then stepping right from the left in quarter-widths of the label.
export function alongHorizontal(y: number, size: { width: number; height: number }, area: Area, gap = 2, inset = 4): Box[] {
  const rows = [y - gap - size.height, y + gap];
  const first = area.left + inset;
  const last = area.right - inset - size.width;
  const columns = [first, last];
  const step = Math.max(8, size.width / 4);
  for (let x = first + step; x < last; x += step) columns.push(x);
  return columns.flatMap((left) => rows.map((top) => ({ left, top, width: size.width, height: size.height }))).filter((b) => inside(b, area));
}
