// Small multiples in one chart: a lab whose series name a panel (the elementwise lab: one per operation) gets one
// y axis per panel, stacked down the left on the same range, under one x axis, so that the panels read on the same
// axes; each panel titled with its name beside its axis, its series named in the legend as the panel leaves them
// ("GPU resident", once for every panel).
import type { ChartTheme } from './palette.ts';
import type { SeriesGroup } from './series-groups.ts';
import { legendLabel } from './series-groups.ts';
import type { Translate } from './text.ts';

// The y axis of a panel.
export function panelScale(panel: string): string {
  return `y-${panel}`;
}

// The panels of these series, in their order; none where no series names one.
export function panelsOf(groups: readonly SeriesGroup[]): string[] {
  return [...new Set(groups.flatMap((g) => (g.descriptor.panel === undefined ? [] : [g.descriptor.panel])))];
}

export function panelLegend(group: SeriesGroup, t: Translate): string {
  return legendLabel(group, t, group.descriptor.inPanel ?? group.descriptor.label);
}

// A log axis padded by this share of its decades at either end, so that a tick at the end of one panel's range keeps
// its label inside the panel (12-pixel text, panels of 150 pixels: 8 % is 12 pixels) and clear of the next panel's.
const END_ROOM = 0.08;

interface ValueScale {
  type: 'linear' | 'logarithmic';
  min?: number;
  max?: number;
}

export function panelAxes<S extends ValueScale>(panels: readonly string[], scale: S, theme: ChartTheme): Record<string, S & object> {
  const { min, max } = scale;
  const padded =
    scale.type === 'logarithmic' && min !== undefined && max !== undefined && min > 0 && max > min
      ? { min: min / 10 ** (END_ROOM * Math.log10(max / min)), max: max * 10 ** (END_ROOM * Math.log10(max / min)) }
      : {};
  const axes: Record<string, S & object> = {};
  // Chart.js stacks the first axis of a stack at the foot: the last panel first, so that the first reads at the top.
  for (const panel of [...panels].reverse()) {
    axes[panelScale(panel)] = {
      ...scale,
      ...padded,
      position: 'left' as const,
      stack: 'panels',
      stackWeight: 1,
      title: { display: true, text: panel, color: theme.text, font: { weight: 'bold' as const } },
    };
  }
  return axes;
}
