// A bar's tick label is broken into lines its bar's width holds, in both languages: the speedup line under a bar
// ("8,99× frente a CPU, todos los hilos") wraps like the series' name, or it runs into the next bar's label.
import { describe, expect, it } from 'vitest';

import { results as resultsEs } from '../../../../main/common/pure/i18n/es/results.ts';
import { catalogTranslate } from '../../../../main/common/pure/i18n/translate.ts';
import { labDescriptors } from '../../../../main/labs/index.ts';
import { withCurrentFindings } from '../../../../main/runs/current-findings.ts';
import { runChart } from '../../../../main/common/pure/charts/run-chart.ts';
import { fixtureRun, inputs } from './synthetic-runs.ts';

const BAR_LABS = ['matmul', 'vector-function', 'dtypes', 'timing-pitfalls'];
const tEs = catalogTranslate({ results: resultsEs });

function tickLines(chart: ReturnType<typeof runChart>): string[] {
  const labels = (chart.config.data?.labels ?? []) as (string | string[])[];
  return labels.flatMap((l) => (Array.isArray(l) ? l : [l]));
}

describe("a bar chart's tick labels", () => {
  it.each(BAR_LABS.flatMap((lab) => [[lab, 'en'], [lab, 'es']] as const))('%s (%s): no line longer than a bar holds, but a single word', (labId, locale) => {
    const { record, lab } = fixtureRun(`h100-${labId}`);
    const spanishLab = labDescriptors('es').find((l) => l.id === labId) ?? lab;
    const chart = locale === 'en' ? runChart(record, lab, inputs) : runChart(record, spanishLab, { ...inputs, t: tEs });
    const lines = tickLines(chart);
    expect(lines.length).toBeGreaterThan(0);
    // A column's name under its bar; a row's beside it, with a third of the chart.
    const limit = chart.config.type === 'bar' && chart.config.options?.indexAxis === 'y' ? 28 : 18;
    for (const line of lines) if (line.includes(' ')) expect(line.length, line).toBeLessThanOrEqual(limit);
  });

  // The vector-function run was recorded in English, before points had names; read as the app reads it (the names
  // its plan gives the points) and shown in Spanish, its bars are named in Spanish, as the table names them.
  it('names the bars in the language shown, not as the run was recorded', () => {
    const record = withCurrentFindings(fixtureRun('h100-vector-function').record);
    const spanishLab = labDescriptors('es').find((l) => l.id === 'vector-function');
    if (!spanishLab) throw new Error('no Spanish vector-function lab');
    const text = tickLines(runChart(record, spanishLab, { ...inputs, t: tEs })).join(' ');
    expect(text).not.toContain('one thread');
    expect(text).toContain('un hilo');
  });
});
