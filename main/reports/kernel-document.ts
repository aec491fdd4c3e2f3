// Kernel playground runs in a report: read in the report's language (the exercise's words, each comparison's
// title), titled, and laid out one chapter each, either as a report of their own or after the run (or the two runs
// compared) that the report opens with.
import type { Translate } from '../common/pure/charts/text.ts';
import type { Locale } from '../common/pure/locale.ts';
import type { Comparison, ExerciseDescriptor, ExerciseId, KernelRun } from '../common/playground.ts';
import { comparisonTitle, exerciseDescriptor } from '../playground/descriptors.ts';
import { authorship } from './documents.ts';
import { kernelRunChapter } from './kernel-sections.ts';
import type { ReportedKernelRun } from './kernel-sections.ts';
import { COLOURS, SIZES } from './layout.ts';
import type { ReportContext } from './report-context.ts';

// The title in the report's language; a comparison the exercise does not name keeps the title it was stored with.
function localTitle(exercise: ExerciseId, comparison: Comparison, locale: Locale): string {
  const title = comparisonTitle(exercise, comparison.id, locale);
  return title === comparison.id ? comparison.title : title;
}

export async function reportedKernelRuns(runs: readonly KernelRun[], locale: Locale, roots: readonly string[]): Promise<ReportedKernelRun[]> {
  const descriptors = new Map<ExerciseId, Promise<ExerciseDescriptor>>();
  const descriptor = (id: ExerciseId): Promise<ExerciseDescriptor> => {
    const known = descriptors.get(id) ?? exerciseDescriptor(id, locale, roots);
    descriptors.set(id, known);
    return known;
  };
  return Promise.all(
    runs.map(async (run) => ({
      run,
      exercise: await descriptor(run.exercise),
      result: run.result && { ...run.result, comparisons: run.result.comparisons.map((c) => ({ ...c, title: localTitle(run.exercise, c, locale) })) },
    })),
  );
}

export function kernelRunsTitle(runs: readonly ReportedKernelRun[], t: Translate): string {
  const titles = [...new Set(runs.map((r) => r.exercise.title))];
  if (runs.length === 1) return t('pdf.kernelRun.title.one', { exercise: titles[0] ?? '' });
  if (titles.length === 1) return t('pdf.kernelRun.title.exercise', { exercise: titles[0] ?? '' });
  return t('pdf.kernelRun.title.several', { count: titles.length });
}

export function kernelRunsSubject(runs: readonly ReportedKernelRun[], t: Translate): string {
  return t('pdf.kernelRun.subject', { runs: runs.map((r) => r.run.id).join(', ') });
}

// A report of kernel runs alone: the title block, then a chapter each; the first follows the title block.
export function kernelRunsDocument(runs: readonly ReportedKernelRun[], title: string, ctx: ReportContext): void {
  const { layout, t } = ctx;
  layout.heading(1, title);
  authorship(ctx);
  layout.labelled(t('pdf.facts.app'), t('pdf.facts.appValues', { writer: ctx.settings.writerVersion }));
  layout.paragraph(t('pdf.kernelRun.intro'), { size: SIZES.small + 0.5, colour: COLOURS.muted });
  runs.forEach((run, i) => {
    if (i > 0) layout.newPage();
    kernelRunChapter(run, ctx, { intro: false });
  });
}

// Kernel runs after the run or runs a report opens with: each on a page of its own, the first saying what they are.
export function kernelRunChapters(runs: readonly ReportedKernelRun[], ctx: ReportContext): void {
  runs.forEach((run, i) => {
    ctx.layout.newPage();
    kernelRunChapter(run, ctx, { intro: i === 0 });
  });
}
