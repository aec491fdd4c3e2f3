// Kernel runs and drafts on disk: <data dir>/kernels/runs/<id>.json, one file per run, and
// <data dir>/kernels/drafts/<exercise>.cu, the student's current source of each exercise. Written atomically (a
// temporary file renamed over the old one). A run file that does not parse or does not match the schema is
// skipped with a warning when listing, and refused by name when asked for.
import { randomBytes } from 'node:crypto';
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';

import { ensureFolder, writeFileAtomic } from '../runs/atomic-write.ts';
import { MAX_KERNEL_SOURCE_BYTES, MAX_RECORD_BYTES, notJson, readRegularFile, unreadOf } from '../runs/regular-file.ts';
import { GpuLabError } from '../common/errors.ts';
import { KERNEL_RUN, MAX_SOURCE_CHARS } from '../common/playground.ts';
import type { ExerciseId, KernelRun, KernelRunSummary } from '../common/playground.ts';
import { confineKernelRun } from '../common/compiler-log.ts';
import { exerciseDefinition } from '../common/exercises.ts';

const ID = /^[A-Za-z0-9._-]{1,120}$/;

export function summarizeKernelRun(run: KernelRun): KernelRunSummary {
  return {
    id: run.id,
    exercise: run.exercise,
    createdAt: run.createdAt,
    status: run.status,
    device: run.result?.device ?? run.request.device ?? null,
    medianMs: run.result?.throughput?.medianMs ?? null,
    rate: run.result?.throughput?.rate ?? null,
    metric: exerciseDefinition(run.exercise).metric,
  };
}

export class KernelStore {
  readonly runsDir: string;
  readonly draftsDir: string;
  private readonly warn: (message: string) => void;

  constructor(dataDir: string, options: { warn?: (message: string) => void } = {}) {
    this.runsDir = join(dataDir, 'kernels', 'runs');
    this.draftsDir = join(dataDir, 'kernels', 'drafts');
    this.warn = options.warn ?? ((m) => process.stderr.write(`gpu-lab: ${m}\n`));
    ensureFolder(this.runsDir, 'the kernel runs folder');
    ensureFolder(this.draftsDir, 'the kernel drafts folder');
  }

  private runPath(id: string): string {
    if (!ID.test(id)) throw new GpuLabError('NOT_FOUND', `"${id.slice(0, 200)}" is not a kernel run id (letters, digits, . _ - only)`, { id: id.slice(0, 200) });
    return join(this.runsDir, `${id}.json`);
  }

  newId(exercise: ExerciseId): string {
    return `${new Date().toISOString().replace(/[:.]/g, '-')}-${exercise}-${randomBytes(3).toString('hex')}`;
  }

  async save(run: KernelRun): Promise<void> {
    await writeFileAtomic(this.runPath(run.id), JSON.stringify(confineKernelRun(run)), { what: `kernel run ${run.id}` });
  }

  async get(id: string): Promise<KernelRun> {
    const path = this.runPath(id);
    let text: string;
    try {
      text = (await readRegularFile(path, { maxBytes: MAX_RECORD_BYTES, what: 'kernel run file' })).text;
    } catch (err) {
      const unread = unreadOf(err);
      // A FIFO, a link or a file far too large in its place is named (regular-file.ts), never opened.
      throw new GpuLabError('NOT_FOUND', unread && unread.reason !== 'missing' ? `The kernel run ${id} is unreadable: ${(err as Error).message}` : `There is no kernel run ${id}`, { id });
    }
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (err) {
      throw new GpuLabError('NOT_FOUND', `The kernel run ${id} is unreadable: ${path} is ${notJson(err)}`, { id, path });
    }
    const parsed = KERNEL_RUN.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new GpuLabError('NOT_FOUND', `The kernel run ${id} is unreadable: ${path}: \`${issue?.path.join('.') ?? ''}\` ${issue?.message ?? 'does not match'}`, { id, path });
    }
    return confineKernelRun(parsed.data);
  }

  // Newest first. Unreadable files are skipped with a warning naming them.
  async list(exercise?: ExerciseId): Promise<KernelRunSummary[]> {
    const names = (await readdir(this.runsDir)).filter((n) => n.endsWith('.json'));
    const runs: KernelRun[] = [];
    for (const name of names) {
      try {
        runs.push(await this.get(name.slice(0, -'.json'.length)));
      } catch (err) {
        this.warn(`skipped a kernel run: ${(err as Error).message}`);
      }
    }
    return runs
      .filter((r) => !exercise || r.exercise === exercise)
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
      .map(summarizeKernelRun);
  }

  async delete(id: string): Promise<void> {
    await this.get(id);
    await rm(this.runPath(id));
  }

  async loadDraft(exercise: ExerciseId): Promise<string | null> {
    const path = join(this.draftsDir, `${exerciseDefinition(exercise).id}.cu`);
    return readRegularFile(path, { maxBytes: MAX_KERNEL_SOURCE_BYTES, what: 'draft' }).then(
      (file) => file.text,
      () => null,
    );
  }

  async saveDraft(exercise: ExerciseId, source: string): Promise<void> {
    if (source.length > MAX_SOURCE_CHARS) {
      throw new GpuLabError('INVALID_ARGUMENT', `A kernel source may hold at most ${MAX_SOURCE_CHARS} characters, not ${source.length}`, { field: 'source', length: source.length });
    }
    await writeFileAtomic(join(this.draftsDir, `${exerciseDefinition(exercise).id}.cu`), source, { what: `the draft of ${exercise}` });
  }
}
