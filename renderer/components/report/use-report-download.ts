// Asks main for the PDF report of one run, or of two compared, or of kernel playground runs, or of every lab on a
// device, with the remembered author and course, and hands its bytes to the browser as a download (a save dialog in
// Electron). What became of the last attempt stays on show until the report asked for changes: the file saved, or
// main's refusal in its own words. The report is written in the app's language.
import { ref, watch } from 'vue';

import { errorText } from '../../api/index.ts';
import { downloadBase64 } from '../../composables/download.ts';
import { useLanguageStore } from '../../stores/language.ts';
import { useReportsStore } from '../../stores/reports.ts';
import { reportFields } from './report-fields.ts';

export interface SavedReport {
  filename: string;
  pages: number;
}

// Runs (one, or two compared) with kernel runs after them, or kernel runs alone; or every lab on a device.
export type ReportAsked = { runIds: string[]; kernelRunIds: string[] } | { labsOn: string };

// `fileName`: what the download is called, where the page names it for people; else main's name.
export function useReportDownload(asked: () => ReportAsked, fileName: () => string | undefined = () => undefined) {
  const saving = ref(false);
  const saved = ref<SavedReport | null>(null);
  const error = ref<string | null>(null);
  const { author, course } = reportFields();
  const language = useLanguageStore();
  const reports = useReportsStore();

  // "Saved …" under another device's or run's report would say it was this one.
  watch(
    () => JSON.stringify(asked()),
    () => {
      saved.value = null;
      error.value = null;
    },
  );

  async function save(): Promise<void> {
    if (saving.value) return;
    saving.value = true;
    saved.value = null;
    error.value = null;
    try {
      const what = asked();
      const fields = { author: author.value, course: course.value, locale: language.locale };
      const file =
        'labsOn' in what
          ? await reports.writeLabsReport({ device: what.labsOn, ...fields })
          : await reports.writeReport({ runIds: what.runIds, ...(what.kernelRunIds.length ? { kernelRunIds: what.kernelRunIds } : {}), ...fields });
      const filename = fileName() ?? file.filename;
      downloadBase64(filename, file.mimeType, file.base64);
      saved.value = { filename, pages: file.pages };
    } catch (err) {
      error.value = errorText(err);
    } finally {
      saving.value = false;
    }
  }

  return { author, course, saving, saved, error, save };
}
