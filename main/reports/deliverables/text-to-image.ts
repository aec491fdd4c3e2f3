// text-to-image, seed 004's third notebook (Unit 10, Stable_Diffusion_GPU_vs_CPU): one row per point — a U-Net step at
// its batch, or the text encoder — with its time, one image's time (the steps of its batch shared by its images, the
// text encoder once), the GPU's speedup per image over the CPU in fp32, the rate and the memory at its peak; then the
// notebook's question, how much faster is the GPU for generating an image and why, answered from the lab's own
// findings (labs/text-to-image-analysis.ts, every direction from the intervals). The chapter says what was timed:
// random weights (or the cached model the run names), no image produced, the network's arithmetic only.
import { formatBytes, formatMs, formatRate, formatTimes, formatTolerance } from '../../common/pure/format.ts';
import type { PointResult } from '../../common/run-record.ts';
import { TEXT_TO_IMAGE_TOLERANCE } from '../../common/unet-work.ts';
import { findingText, pointText } from '../../labs/lab-text.ts';
import { imageTime } from '../../labs/text-to-image-analysis.ts';
import type { Side, TypeName } from '../../labs/text-to-image-series.ts';
import type { DeliverableBuilder, DeliverableContext } from './common.ts';
import { cannotAnswer, figure, timeCell, waivedNotes, words } from './common.ts';
import type { TableRow } from '../table.ts';

// "gpu-fp16@4" → its side, type and batch; a text encoder's point ("gpu-text-fp16") → batch 1.
function parts(p: PointResult): { side: Side; dtype: TypeName; batch: number; text: boolean } | null {
  const m = /^(cpu|gpu)-(text-)?(fp32|fp16)(?:@(\d+))?$/.exec(p.key);
  if (!m) return null;
  return { side: m[1] as Side, dtype: m[3] as TypeName, batch: Number(m[4] ?? 1), text: m[2] !== undefined };
}

function row(context: DeliverableContext, p: PointResult, steps: number): TableRow {
  const { record, lab, t } = context;
  const locale = lab.locale ?? 'en';
  const of = parts(p);
  const image = of && !of.text ? imageTime(record.points, of.side, of.dtype, of.batch, steps) : null;
  const cpu = of && !of.text && of.side === 'gpu' ? imageTime(record.points, 'cpu', 'fp32', of.batch, steps) : null;
  const speedup = image && cpu ? formatTimes(cpu.image.median / image.image.median) : '—';
  return {
    cells: [
      { text: pointText(p, locale, lab) },
      timeCell(p, t),
      image ? formatMs(image.image.median) : '—',
      speedup,
      p.status === 'ok' && p.gflops !== null ? formatRate(p.gflops, 'GFLOP/s') : '—',
      p.status === 'ok' && p.memory ? t(`pdf.deliverable.textToImage.memory.${p.memory.where}`, { bytes: formatBytes(p.memory.bytes) }) : '—',
    ],
  };
}

// The lab's finding of that id, in the report's language, or what is missing for it.
function answerOf(context: DeliverableContext, ids: readonly string[], series: readonly string[]): string {
  const { record, lab, t } = context;
  const found = ids.flatMap((id) => record.findings.filter((f) => f.id === id)).map((f) => findingText(f, lab.locale ?? 'en'));
  return found.length ? found.join(' ') : cannotAnswer(record, series, t);
}

export const textToImageDeliverable: DeliverableBuilder = (context) => {
  const { record, t } = context;
  const steps = typeof record.params.steps === 'number' ? record.params.steps : 1;
  const c = (key: string) => figure(t(`pdf.deliverable.textToImage.columns.${key}`));
  const scope = record.findings.find((f) => f.id === 'scope');
  const series = [...new Set(record.points.map((p) => p.series))];
  return {
    source: t('pdf.deliverable.textToImage.source'),
    tables: [
      {
        caption: t('pdf.deliverable.textToImage.caption', { steps: String(steps) }),
        columns: [words(t('pdf.deliverable.textToImage.columns.point')), c('time'), c('image'), c('speedup'), c('rate'), c('memory')],
        rows: record.points.map((p) => row(context, p, steps)),
        notes: [
          ...(scope ? [findingText(scope, context.lab.locale ?? 'en')] : []),
          t('pdf.deliverable.textToImage.note', { steps: String(steps), fp32: formatTolerance(TEXT_TO_IMAGE_TOLERANCE.fp32), fp16: formatTolerance(TEXT_TO_IMAGE_TOLERANCE.fp16) }),
          ...waivedNotes(record, series, t),
        ],
      },
    ],
    answers: [
      { question: t('pdf.deliverable.textToImage.q.faster'), answer: answerOf(context, ['image-speedup'], ['gpu-fp32', 'cpu-fp32']) },
      { question: t('pdf.deliverable.textToImage.q.why'), answer: answerOf(context, ['why', 'half', 'batch'], ['gpu-fp32', 'cpu-fp32']) },
      { question: t('pdf.deliverable.textToImage.q.memory'), answer: answerOf(context, ['memory'], ['gpu-fp32', 'gpu-fp16']) },
      { question: t('pdf.deliverable.textToImage.q.check'), answer: answerOf(context, ['check'], ['gpu-fp32']) },
    ],
  };
};
