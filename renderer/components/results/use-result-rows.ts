// The results table's rows, following a record that is replaced as points stream in. A row is built once per point
// object (and per baseline point, which its speedup reads) and reused while the point is unchanged, so that a new
// point costs one new row, not three hundred: with v-memo on the row, Vue skips the rows whose object is the same.
// Each row is the table's (table-rows.ts): the chart's and the PDF's figures with the series, size and group beside.
import type { ComputedRef } from 'vue';
import { computed } from 'vue';

import type { LabDescriptor } from '../../../main/common/lab-descriptor.ts';
import type { PointResult, RunRecord } from '../../../main/common/run-record.ts';
import { baselineKey, pointsByKey } from '../../../main/common/pure/charts/points.ts';
import { resultRow } from '../../../main/common/pure/charts/result-rows.ts';
import type { Translate } from '../../../main/common/pure/charts/text.ts';
import { useTranslate } from '../charts/use-chart-inputs.ts';
import { seriesIndexOf, tableRow } from './table-rows.ts';
import type { TableRow } from './table-rows.ts';

interface CachedRow {
  baseline: PointResult | undefined;
  row: TableRow;
}

export function useResultRows(record: () => RunRecord, lab: () => LabDescriptor): ComputedRef<TableRow[]> {
  const translate = useTranslate();
  let cache = new WeakMap<PointResult, CachedRow>();
  let builtFor: { lab: LabDescriptor; t: Translate } | null = null;
  return computed(() => {
    const r = record();
    const l = lab();
    const t = translate.value;
    // Another lab or another language: every row reads differently.
    if (builtFor?.lab !== l || builtFor.t !== t) {
      cache = new WeakMap();
      builtFor = { lab: l, t };
    }
    const byKey = pointsByKey(r);
    const seriesIndex = seriesIndexOf(l);
    return r.points.map((p) => {
      const key = baselineKey(l, p);
      const baseline = key === null ? undefined : byKey.get(key);
      const hit = cache.get(p);
      if (hit && hit.baseline === baseline) return hit.row;
      const row = tableRow(p, resultRow(p, l, baseline, t), l, baseline, seriesIndex(p.series), t);
      cache.set(p, { baseline, row });
      return row;
    });
  });
}
