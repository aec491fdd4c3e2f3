// A point as the lab's words name it, in the language shown: its recorded label where that begins with its series'
// label (it was recorded in this language), else, for a point of a sweep, its series' label and its size ("GPU con
// transferencias, N = 100" for a run recorded in English, shown in Spanish). A category's point keeps its recorded
// label: its words are the lab's own (a dtype, a thread count) and cannot be rebuilt from the series.
import type { LabDescriptor } from '../../main/common/lab-descriptor.ts';
import type { PointResult } from '../../main/common/run-record.ts';
import { sizeText } from './break-even-marks.ts';
import { seriesOf } from './points.ts';
import type { Translate } from './text.ts';

export function pointLabel(p: PointResult, lab: LabDescriptor, t: Translate): string {
  const series = seriesOf(lab, p.series);
  const quantity = lab.chart.x.quantity;
  if (!series || p.x === null || quantity === 'category' || p.label.startsWith(series.label)) return p.label;
  return `${series.label}, ${sizeText(quantity, p.x, t)}`;
}
