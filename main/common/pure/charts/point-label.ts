// A point as the lab's words name it, in the language shown: its name (a message of its lab's catalog, whose
// templates the descriptor carries). A point recorded before points had names: its recorded label where that begins
// with its series' label (it was recorded in this language), else, for a point of a sweep, its series' label and its
// size ("GPU con transferencias, N = 100" for a run recorded in English, shown in Spanish); a category's point keeps
// its recorded label.
import type { LabDescriptor } from '../../lab-descriptor.ts';
import { flatTranslate } from '../i18n/translate.ts';
import { renderMessage } from '../message.ts';
import type { PointResult } from '../../run-record.ts';
import { sizeText } from './break-even-marks.ts';
import { seriesOf } from './points.ts';
import type { Translate } from './text.ts';

export function pointLabel(p: Pick<PointResult, 'name' | 'series' | 'x' | 'label'>, lab: LabDescriptor, t: Translate): string {
  if (p.name) {
    const locale = lab.locale ?? 'en';
    return renderMessage(p.name, flatTranslate(lab.messages ?? {}, locale), locale);
  }
  const series = seriesOf(lab, p.series);
  const quantity = lab.chart.x.quantity;
  if (!series || p.x === null || quantity === 'category' || p.label.startsWith(series.label)) return p.label;
  return `${series.label}, ${sizeText(quantity, p.x, t)}`;
}
