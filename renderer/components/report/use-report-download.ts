// Asks main for the PDF report of one run, or of two compared, or of kernel playground runs, or of every lab on a
// device, with the remembered author and course, and hands its
// bytes to the browser as a download (a save dialog in Electron). What became of the last attempt stays on show:
// the file saved, or main's refusal in its own words. The report is written in the app's language.
import { ref } from 'vue';

import { api, errorText } from '../../api/index.ts';
import { downloadBase64 } from '../../composables/download.ts';
import { useLanguageStore } from '../../stores/language.ts';
import { reportFields } from './report-fields.ts';

export interface SavedReport {
  filename: string;
  pages: number;
}

export function useReportDownload(options: { runIds: () => string[]; kernelRunIds?: () => string[]; labsOn?: () => string | undefined }) {
  const saving = ref(false);
  const saved = ref<SavedReport | null>(null);
  const error = ref<string | null>(null);
  const { author, course } = reportFields();
  const language = useLanguageStore();

  async function save(): Promise<void> {
    if (saving.value) return;
    saving.value = true;
    saved.value = null;
    error.value = null;
    try {
      const kernelRunIds = options.kernelRunIds?.() ?? [];
      const device = options.labsOn?.();
      const asked = { author: author.value, course: course.value, locale: language.locale };
      const file = device
        ? await api.reports.writeLabsReport({ device, ...asked })
        : await api.reports.writeReport({ runIds: options.runIds(), ...(kernelRunIds.length ? { kernelRunIds } : {}), ...asked });
      downloadBase64(file.filename, file.mimeType, file.base64);
      saved.value = { filename: file.filename, pages: file.pages };
    } catch (err) {
      error.value = errorText(err);
    } finally {
      saving.value = false;
    }
  }

  return { author, course, saving, saved, error, save };
}
