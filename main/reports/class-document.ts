// The class's PDF, in the teacher's language: the class, then each lab's summary as the teacher's view shows it (for
// each setup, the students' headline numbers with their intervals, the class's range of each, who lies outside it as
// far as the intervals tell, who has not run the lab), then each student's part: for each lab, the run the summary
// shows, with the run report's own sections (its facts, parameters, results, findings and the course's deliverable).
// Students' names are anyone's input: they are only ever drawn as text.
import { MIN_CLASS_STUDENTS } from '../common/pure/claims.ts';
import { againstText, earlierText, headlineName, intervalText, numberText, rangeText, reportOrder } from '../common/pure/class-text.ts';
import type { ClassLab, ClassOverview, ClassRow, ClassSetup } from '../common/contract/classroom.ts';
import { formatFindingValue } from '../common/pure/format.ts';
import { localizeDecimal } from '../common/pure/locale.ts';
import { runFacts } from './documents.ts';
import { COLOURS, SIZES } from './layout.ts';
import type { LabRun, ReportContext } from './report-context.ts';
import { dateText } from './report-context.ts';
import { deliverableSection, findingsSection, parametersSection, resultsSection } from './run-sections.ts';
import { chartHeight } from './chart-image.ts';
import { drawTable } from './table.ts';
import type { TableCell, TableColumn, TableRow } from './table.ts';

export interface ClassReport {
  overview: ClassOverview;
  // The records of the runs the overview's rows show, by run id, in the report's language.
  runs: ReadonlyMap<string, LabRun>;
  // Each lab's title in the report's language.
  labTitles: ReadonlyMap<string, string>;
}

function paramsText(params: ClassSetup['params'], ctx: ReportContext): string {
  const value = (v: unknown): string => (Array.isArray(v) ? v.join(', ') : localizeDecimal(String(v), ctx.settings.locale));
  return Object.entries(params)
    .map(([k, v]) => `${k} = ${value(v)}`)
    .join('; ');
}

function studentName(row: ClassRow, ctx: ReportContext): string {
  return row.removed ? ctx.t('classroom.teacher.labs.removed', { name: row.student }) : row.student;
}

function setupTable(lab: string, setup: ClassSetup, ctx: ReportContext): void {
  const { t, settings } = ctx;
  const columns: TableColumn[] = [
    { title: t('classroom.teacher.labs.student'), width: 'wrap' },
    { title: t('classroom.teacher.labs.run'), width: 'fit' },
    { title: t('classroom.teacher.labs.status'), width: 'fit' },
    ...setup.columns.map((c): TableColumn => ({ title: headlineName(lab, c.id, t), width: 'wrap', align: 'right' })),
  ];
  const rows: TableRow[] = setup.rows.map((row) => ({
    cells: [
      studentName(row, ctx),
      dateText(row.createdAt),
      t(`app.status.${row.status}`),
      ...row.numbers.map((n, i): TableCell => {
        if (!n) return { text: '—' };
        const shown = numberText(n, t, settings.locale);
        const against = againstText(n, setup.columns[i]?.range ?? null, t, settings.locale);
        const note = [shown.interval, against].filter(Boolean).join(' · ');
        return { text: shown.value, ...(note ? { note } : {}), ...(against ? { colour: COLOURS.warning, font: 'bold' as const } : {}) };
      }),
    ],
  }));
  drawTable(ctx.layout, { columns, rows, size: SIZES.small });
}

function setupSummary(lab: string, setup: ClassSetup, ctx: ReportContext): void {
  const { layout, t, settings } = ctx;
  const { locale } = settings;
  layout.heading(3, t('classroom.teacher.labs.setup', { device: setup.device, count: setup.rows.length }, setup.rows.length));
  layout.paragraph(t('classroom.teacher.labs.params', { params: paramsText(setup.params, ctx) }), { size: SIZES.small, colour: COLOURS.muted });
  setupTable(lab, setup, ctx);
  layout.paragraph(t('pdf.class.numbersTitle'), { font: 'bold' });
  layout.bullets(
    setup.columns.map((c) => {
      const name = headlineName(lab, c.id, t);
      const unit = setup.rows.flatMap((r) => r.numbers.map((n) => n?.finding)).find((f) => f?.id === c.id)?.unit ?? 'none';
      return { text: c.range ? t('pdf.class.columnRange', { name, range: rangeText(c.range, unit, t, locale) }) : t('pdf.class.columnNoRange', { name, min: MIN_CLASS_STUDENTS }) };
    }),
    SIZES.small,
  );
  const outliers = setup.rows.flatMap((row) =>
    row.numbers.flatMap((n, i) => {
      const column = setup.columns[i];
      if (!n || !column) return [];
      const against = againstText(n, column.range, t, locale);
      const { value, interval, unit } = n.finding;
      if (!against || value === null || !interval) return [];
      const said = { student: studentName(row, ctx), name: headlineName(lab, column.id, t), value: formatFindingValue(value, unit, locale), interval: intervalText(interval, unit, t, locale), against };
      return [{ text: t('pdf.class.outlier', said), mark: '!', colour: COLOURS.warning }];
    }),
  );
  if (setup.columns.some((c) => c.range)) {
    layout.paragraph(t('pdf.class.outliersTitle'), { font: 'bold' });
    if (outliers.length) layout.bullets(outliers, SIZES.small);
    else layout.paragraph(t('pdf.class.noOutliers'), { size: SIZES.small });
  }
}

function labSummary(lab: ClassLab, report: ClassReport, ctx: ReportContext): void {
  const { layout, t } = ctx;
  const title = report.labTitles.get(lab.lab) ?? lab.lab;
  layout.heading(2, title, 120);
  if (lab.setups.length === 0) layout.paragraph(t('classroom.teacher.labs.none'));
  for (const setup of lab.setups) setupSummary(lab.lab, setup, ctx);
  if (lab.earlier > 0) layout.paragraph(earlierText(lab, t), { size: SIZES.small, colour: COLOURS.muted });
  const names = lab.notRun.map((s) => s.name);
  layout.paragraph(names.length ? t('classroom.teacher.labs.notRun', { names: names.join(', ') }) : t('classroom.teacher.labs.everyone'), { size: SIZES.small });
}

// One run of a student with the run report's own sections.
function chapter(row: ClassRow, run: LabRun, ctx: ReportContext): void {
  const { layout, t } = ctx;
  const title = t('pdf.class.studentPart', { student: studentName(row, ctx), lab: run.record.labTitle });
  layout.heading(1, title);
  layout.doc.outline.addItem(title);
  runFacts(run.record, ctx);
  layout.heading(2, t('pdf.sections.parameters'));
  parametersSection(run, ctx);
  layout.heading(2, t('pdf.sections.results'), chartHeight(layout) + 40);
  resultsSection(run, ctx);
  layout.heading(2, t('pdf.sections.findings'));
  findingsSection(run, ctx);
  layout.heading(2, t('pdf.sections.deliverable'));
  deliverableSection(run, ctx);
}

export async function classDocument(report: ClassReport, title: string, ctx: ReportContext): Promise<void> {
  const { layout, t, settings } = ctx;
  const { overview } = report;
  layout.heading(1, title);
  layout.labelled(t('pdf.class.facts.class'), overview.className);
  layout.labelled(t('pdf.facts.written'), dateText(settings.date));
  layout.labelled(t('pdf.class.facts.students'), String(overview.students.length));
  layout.labelled(t('pdf.class.facts.runs'), String(report.runs.size));
  layout.labelled(t('pdf.facts.app'), t('pdf.facts.appValues', { writer: settings.writerVersion }));
  layout.paragraph(t('classroom.teacher.intro', { min: MIN_CLASS_STUDENTS }), { size: SIZES.small + 0.5, colour: COLOURS.muted });
  layout.heading(1, t('pdf.class.summaryTitle'));
  layout.doc.outline.addItem(t('pdf.class.summaryTitle'));
  for (const lab of overview.labs) labSummary(lab, report, ctx);
  layout.newPage();
  layout.heading(1, t('pdf.class.studentsTitle'));
  layout.doc.outline.addItem(t('pdf.class.studentsTitle'));
  // The removed students' runs stay in the class, and so in its report, after those still in it.
  const rows = reportOrder(overview);
  if (overview.students.length === 0 && rows.length === 0) layout.paragraph(t('pdf.class.noStudents'));
  const ran = new Set(rows.map((r) => r.studentId));
  const idle = overview.students.filter((s) => !ran.has(s.id)).map((s) => s.name);
  if (idle.length) layout.paragraph(t('pdf.class.noRun', { students: idle.join(', ') }));
  const chapters = rows.flatMap((row) => {
    const run = report.runs.get(row.runId);
    return run ? [{ row, run }] : [];
  });
  // The runs past the report's limit (class-exports.ts, MAX_REPORT_RUNS) come without their records.
  const left = rows.length - chapters.length;
  if (left > 0) layout.paragraph(t('pdf.class.leftOut', { count: left, max: chapters.length }, left));
  // The first chapter follows the part's title on its page; each other starts a page.
  for (const [i, { row, run }] of chapters.entries()) {
    if (i > 0) layout.newPage();
    chapter(row, run, ctx);
  }
}
