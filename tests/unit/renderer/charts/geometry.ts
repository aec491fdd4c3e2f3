// Whether a label's box crosses a line or a marker, worked out apart from main/common/pure/charts/label-placement.ts (by
// another method: a segment crosses a box if an end lies in it or it crosses one of the box's four sides; a marker if
// its centre lies within its radius of the box), so that a test of the placement does not grade it with its own
// arithmetic.
import type { Box, Dot, Segment } from '../../../../main/common/pure/charts/label-placement.ts';

type P = { x: number; y: number };

const cross = (o: P, a: P, b: P): number => (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);

const onSegment = (p: P, a: P, b: P): boolean => Math.min(a.x, b.x) <= p.x && p.x <= Math.max(a.x, b.x) && Math.min(a.y, b.y) <= p.y && p.y <= Math.max(a.y, b.y);

function segmentsMeet(a: P, b: P, c: P, d: P): boolean {
  const d1 = cross(c, d, a);
  const d2 = cross(c, d, b);
  const d3 = cross(a, b, c);
  const d4 = cross(a, b, d);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) return true;
  return (d1 === 0 && onSegment(a, c, d)) || (d2 === 0 && onSegment(b, c, d)) || (d3 === 0 && onSegment(c, a, b)) || (d4 === 0 && onSegment(d, a, b));
}

const within = (p: P, b: Box): boolean => p.x >= b.left && p.x <= b.left + b.width && p.y >= b.top && p.y <= b.top + b.height;

export function segmentCrossesBox(s: Segment, b: Box): boolean {
  const a = { x: s.x1, y: s.y1 };
  const z = { x: s.x2, y: s.y2 };
  if (within(a, b) || within(z, b)) return true;
  const tl = { x: b.left, y: b.top };
  const tr = { x: b.left + b.width, y: b.top };
  const br = { x: b.left + b.width, y: b.top + b.height };
  const bl = { x: b.left, y: b.top + b.height };
  return segmentsMeet(a, z, tl, tr) || segmentsMeet(a, z, tr, br) || segmentsMeet(a, z, br, bl) || segmentsMeet(a, z, bl, tl);
}

export function dotTouchesBox(d: Dot, b: Box): boolean {
  const cx = b.left + b.width / 2;
  const cy = b.top + b.height / 2;
  const dx = Math.max(Math.abs(d.x - cx) - b.width / 2, 0);
  const dy = Math.max(Math.abs(d.y - cy) - b.height / 2, 0);
  return Math.hypot(dx, dy) <= d.r;
}

export function boxesTouch(a: Box, b: Box): boolean {
  return !(a.left + a.width <= b.left || b.left + b.width <= a.left || a.top + a.height <= b.top || b.top + b.height <= a.top);
}

export function hits(box: Box, o: { segments: readonly Segment[]; dots: readonly Dot[]; boxes?: readonly Box[] }): number {
  return o.segments.filter((s) => segmentCrossesBox(s, box)).length + o.dots.filter((d) => dotTouchesBox(d, box)).length + (o.boxes ?? []).filter((x) => boxesTouch(x, box)).length;
}
