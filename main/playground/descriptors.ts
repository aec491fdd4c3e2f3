// The exercises as the app and the command line show them: the definitions of exercises.ts with their words in the
// reader's language and the text of every kernel that comes with them, read from the installed sources, each
// launched as its launch header says.
import { GpuLabError } from '../common/errors.ts';
import type { Locale } from '../common/pure/locale.ts';
import type { ExerciseDescriptor, ExerciseId, ExerciseKernel, KernelLaunch } from '../common/playground.ts';
import { EXERCISES, exerciseDefinition, signatureOf } from '../common/exercises.ts';
import type { ExerciseDefinition } from '../common/exercises.ts';
import { describeLaunchHeaderProblem, readLaunchHeader, resolveLaunch } from '../common/pure/launch-header.ts';
import { readInstalledSource } from '../sources/kernel-sources.ts';
import { CATALOGS } from '../common/pure/i18n/index.ts';
import { isPythonLaunch } from '../common/pure/python-launch.ts';

// How a kernel that comes with an exercise is launched at `size`: as its file's launch header says. A file without
// one, or with a wrong one, is a fault of this copy of GPU Lab (tests/unit/playground/references.test.ts).
export function kernelLaunch(def: ExerciseDefinition, file: string, text: string, size: number): KernelLaunch {
  const { header, problem } = readLaunchHeader(text);
  if (problem) throw new GpuLabError('NOT_FOUND', `${file}: ${describeLaunchHeaderProblem(problem)}`, { file });
  if (!header) throw new GpuLabError('NOT_FOUND', `${file} has no launch header (// launch: …)`, { file });
  return resolveLaunch(def, size, header);
}

async function describe(def: ExerciseDefinition, locale: Locale, roots: readonly string[]): Promise<ExerciseDescriptor> {
  const text = CATALOGS[locale].exercises[def.id];
  const kernels: ExerciseKernel[] = await Promise.all(
    def.kernels.map(async (k) => {
      const source = await readInstalledSource(k.file, roots);
      return {
        id: k.id,
        kind: k.kind,
        title: text.kernels[k.id]?.title ?? k.id,
        note: text.kernels[k.id]?.note ?? '',
        file: k.file,
        text: source,
        entry: def.entry,
        launch: kernelLaunch(def, k.file, source, def.size.default),
      };
    }),
  );
  return {
    id: def.id,
    title: text.title,
    statement: [...text.statement],
    hints: [...text.hints],
    signature: signatureOf(def),
    params: def.params,
    entry: def.entry,
    size: { ...def.size, label: text.sizeLabel },
    cover: def.cover,
    defaultBlock: def.defaultBlock,
    metric: def.metric,
    work: text.work,
    kernels,
    builtins: def.builtins.map((b) => ({ id: b.id, kind: b.kind, title: text.builtins[b.id] ?? b.id })),
  };
}

export async function exerciseDescriptors(locale: Locale, roots: readonly string[]): Promise<ExerciseDescriptor[]> {
  return Promise.all(EXERCISES.map((def) => describe(def, locale, roots)));
}

export async function exerciseDescriptor(id: ExerciseId, locale: Locale, roots: readonly string[]): Promise<ExerciseDescriptor> {
  return describe(exerciseDefinition(id), locale, roots);
}

// The title of a comparison (a reference kernel, a built-in, the student's kernel launched from Python) in the
// reader's language.
export function comparisonTitle(exercise: ExerciseId, id: string, locale: Locale): string {
  const text = CATALOGS[locale].exercises[exercise];
  if (isPythonLaunch(id)) return CATALOGS[locale].playground.python.titles[id];
  return text.kernels[id]?.title ?? text.builtins[id] ?? id;
}
