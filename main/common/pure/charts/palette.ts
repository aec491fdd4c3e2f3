// Colours of the charts, light and dark, as data: the renderer picks one by the effective theme, the PDF writer the
// light one. Series colours are the Okabe–Ito palette (told apart with every common colour-vision deficiency), its
// yellow swapped for a neutral grey that reads on white, and Paul Tol's olive as a ninth (the transfer and the
// elementwise labs have nine series); each lightened for the dark theme so that it keeps at least 3:1 against the
// dark surface. A series keeps its colour in both themes and in every chart: its hue is its family's (series that
// belong together share one: a transfer's direction, a wrong timing and the right one), its shade says which member
// it is (pinned memory deeper than pageable, the wrong timing paler than the right one), and its marker shape is its
// own place in the lab's descriptor, so that two series sharing a colour still differ.
import type { PointStyle } from 'chart.js';

export type ThemeMode = 'light' | 'dark';

export interface ChartTheme {
  mode: ThemeMode;
  series: readonly string[];
  text: string;
  muted: string;
  grid: string;
  // Behind labels drawn over the plot (break-even sizes), so that a line under them does not cross the text.
  surface: string;
  // Reference lines that belong to no series (a target speedup, 1×).
  reference: string;
}

// The same tokens as renderer/styles/base.css (--text, --text-muted, --surface), which charts cannot read.
export const LIGHT_CHART_THEME: ChartTheme = {
  mode: 'light',
  series: ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#1B1F24', '#8A8A8A', '#8C8C1E'],
  text: '#1b1f24',
  muted: '#4f5862',
  grid: '#e1e6eb',
  surface: '#ffffff',
  reference: '#4f5862',
};

export const DARK_CHART_THEME: ChartTheme = {
  mode: 'dark',
  series: ['#4FA8E8', '#F0883E', '#2FC59A', '#E3A3C8', '#F2B640', '#8FD3F7', '#E6EDF3', '#A6A6A6', '#CFCF55'],
  text: '#e6edf3',
  muted: '#a3adb8',
  grid: '#2a313b',
  surface: '#161b22',
  reference: '#a3adb8',
};

export function chartTheme(mode: ThemeMode): ChartTheme {
  return mode === 'dark' ? DARK_CHART_THEME : LIGHT_CHART_THEME;
}

// Seven shapes against nine colours: two series share a colour and a shape only 63 places apart.
const MARKERS: readonly PointStyle[] = ['circle', 'rect', 'triangle', 'rectRot', 'star', 'crossRot', 'cross'];

export interface SeriesStyle {
  // The line, the bar's edge, the marker.
  colour: string;
  // A bar's fill: the colour itself, or a paler shade of it for a series drawn 'pale'.
  fill: string;
  marker: PointStyle;
}

// Where a series' colour comes from: its hue (the place of its family among the lab's families: series that belong
// together, a transfer's direction, a pair of right and wrong timings, share one), its shade within the family, and
// its own place in the lab's series (its marker).
export interface SeriesColouring {
  family: number;
  tone?: 'pale' | 'deep';
  index: number;
}

// `hex` moved `share` of the way to `towards` (both #rrggbb).
export function mix(hex: string, towards: string, share: number): string {
  const rgb = (h: string) => [1, 3, 5].map((i) => Number.parseInt(h.slice(i, i + 2), 16));
  const [a, b] = [rgb(hex), rgb(towards)];
  if (a.some((v) => Number.isNaN(v)) || b.some((v) => Number.isNaN(v))) return hex;
  return `#${a.map((v, i) => Math.round(v + ((b[i] ?? v) - v) * share).toString(16).padStart(2, '0')).join('')}`;
}

// A deep shade moves a third of the way to the text's colour (darker on white, lighter on the dark surface); a pale one
// half way to the surface, as a bar's fill only: a pale bar keeps its edge in the family's colour.
export function seriesStyle(theme: ChartTheme, series: SeriesColouring): SeriesStyle {
  const family = Math.max(0, series.family);
  const hue = theme.series[family % theme.series.length] ?? theme.text;
  const colour = series.tone === 'deep' ? mix(hue, theme.text, 0.33) : hue;
  const fill = series.tone === 'pale' ? mix(hue, theme.surface, 0.5) : colour;
  return { colour, fill, marker: MARKERS[Math.max(0, series.index) % MARKERS.length] ?? 'circle' };
}

// '#0072B2' at 0.2 → 'rgba(0, 114, 178, 0.2)': bands and outlined bars are the series' colour, see-through.
export function withAlpha(hex: string, alpha: number): string {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!m) return hex;
  const [r, g, b] = [m[1], m[2], m[3]].map((h) => parseInt(h ?? '0', 16));
  return `rgba(${r}, ${g}, ${b}, ${alpha})`;
}

// "#0072B2" at `alpha` as rgba(): the fill of a series drawn apart (a Python peer's outlined bars).
export function translucent(hex: string, alpha: number): string {
  const n = Number.parseInt(hex.slice(1), 16);
  return `rgba(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255}, ${alpha})`;
}
