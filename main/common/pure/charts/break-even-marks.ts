// Break-even sizes on a sweep: a vertical line at each size the summary holds, labelled with the size; a bound
// (reached already at the smallest size, or not within the sizes measured) is said in a note, never drawn as if it
// were the value. In a chart of panels the line stays in its series' panel, named as the panel names the series.
import type { LabDescriptor } from '../../lab-descriptor.ts';
import type { RunRecord } from '../../run-record.ts';
import { breakEvenTarget, breakEvens } from './break-even.ts';
import type { ChartInputs } from './chart-common.ts';
import type { VerticalMark } from './marks-plugin.ts';
import { seriesStyle } from './palette.ts';
import { panelScale } from './panels.ts';
import { seriesOf } from './points.ts';
import type { SeriesGroup } from './series-groups.ts';
import type { Translate } from './text.ts';
import type { SizeQuantity } from '../format.ts';
import { formatAxisNumber, formatBreakEven, formatSize } from '../format.ts';

export interface BreakEvenMarks {
  target: number;
  vertical: VerticalMark[];
  notes: string[];
  // For the chart's description: one sentence per break-even drawn.
  sentences: string[];
}

// A size with its unit, as a sentence needs it: "2.1 k elements", "N = 740", "3.5 MiB"; an interpolated break-even to
// the two significant digits it is known to ("N ≈ 310" reads "N = 310", never "N = 306.2").
export function sizeText(quantity: SizeQuantity, value: number, t: Translate, interpolated = false): string {
  const size = interpolated ? formatBreakEven(quantity, value) : formatSize(quantity, value);
  return t(`results.chart.size.${quantity === 'matrix-n' ? 'matrixN' : quantity}`, { size });
}

export function breakEvenMarks(
  record: RunRecord,
  lab: LabDescriptor,
  plotted: readonly SeriesGroup[],
  xQuantity: SizeQuantity,
  inputs: ChartInputs,
  runName = '',
  panelled = false,
): BreakEvenMarks {
  const { t, theme } = inputs;
  const target = breakEvenTarget(record);
  // A crossing (1×) reads "faster than the CPU"; a target reads "2× faster than the CPU".
  const kind = target === 1 ? 'crossing' : 'target';
  const out: BreakEvenMarks = { target, vertical: [], notes: [], sentences: [] };
  for (const entry of breakEvens(record, lab)) {
    const group = plotted.find((g) => g.descriptor.key === entry.series);
    if (!group) continue;
    const baselineKey = group.descriptor.baseline ?? '';
    const named = {
      series: runName ? `${runName}: ${group.descriptor.label}` : group.descriptor.label,
      baseline: seriesOf(lab, baselineKey)?.label ?? baselineKey,
      target: `${formatAxisNumber(target)}×`,
    };
    if (entry.size !== null) {
      const size = sizeText(xQuantity, entry.size, t, true);
      const panel = panelled ? group.descriptor.panel : undefined;
      const inPanel = panel === undefined ? named.series : `${runName ? `${runName}: ` : ''}${group.descriptor.inPanel ?? group.descriptor.label}`;
      const mark = { x: entry.size, label: t('results.chart.breakEven.line', { ...named, series: inPanel, size }), short: size, colour: seriesStyle(theme, group.colouring).colour };
      out.vertical.push(panel === undefined ? mark : { ...mark, scale: panelScale(panel) });
      out.sentences.push(t(`results.chart.breakEven.${kind}.at`, { ...named, size }));
    } else if (entry.atMost !== null) {
      out.notes.push(t(`results.chart.breakEven.${kind}.atMost`, { ...named, size: sizeText(xQuantity, entry.atMost, t) }));
    } else if (entry.above !== null) {
      out.notes.push(t(`results.chart.breakEven.${kind}.above`, { ...named, size: sizeText(xQuantity, entry.above, t) }));
    }
  }
  if (out.vertical.length > 0) out.notes.unshift(t(`results.chart.breakEven.${kind}.explain`, { target: `${formatAxisNumber(target)}×` }), ...out.sentences);
  return out;
}
