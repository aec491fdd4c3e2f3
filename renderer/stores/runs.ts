// The stored runs: the history list, records fetched by id (kept while they are final), deletion, export, the runs'
// events and the upload of records from elsewhere (after which the list is read again).
import { defineStore } from 'pinia';
import { ref, shallowRef } from 'vue';

import type { ImportReport, UploadFile, UploadPart } from '../../main/common/contract/imports.ts';
import type { ExportedRun, ExportFormat, RunEvent } from '../../main/common/contract/runs.ts';
import type { RunRecord, RunSummary } from '../../main/common/run-record.ts';
import { api, errorText } from '../api/index.ts';
import { downloadText } from '../composables/download.ts';

const FINAL = new Set(['completed', 'waived', 'cancelled', 'failed']);

export const useRunsStore = defineStore('runs', () => {
  const summaries = shallowRef<RunSummary[]>([]);
  const loaded = ref(false);
  const error = ref<string | null>(null);
  const records = new Map<string, RunRecord>();

  async function refresh(): Promise<void> {
    try {
      summaries.value = await api.runs.listRuns();
      loaded.value = true;
      error.value = null;
    } catch (err) {
      error.value = errorText(err);
    }
  }

  // A record by id; a finished one is fetched once, a running one each time (it is still growing).
  async function record(runId: string): Promise<RunRecord> {
    const cached = records.get(runId);
    if (cached) return cached;
    const fetched = await api.runs.getRun(runId);
    if (FINAL.has(fetched.status)) records.set(runId, fetched);
    return fetched;
  }

  async function remove(runId: string): Promise<void> {
    await api.runs.deleteRun(runId);
    records.delete(runId);
    summaries.value = summaries.value.filter((s) => s.id !== runId);
  }

  // The export's text, for a page that does something else with it than save it (the results table copies it).
  function exported(runId: string, format: ExportFormat): Promise<ExportedRun> {
    return api.runs.exportRun(runId, format);
  }

  // Saved under `filename` where the page names the file for people (composables/file-names.ts), else main's name.
  async function exportRun(runId: string, format: ExportFormat, filename?: string): Promise<void> {
    const file = await exported(runId, format);
    downloadText(filename ?? file.filename, file.mimeType, file.text);
  }

  // Every run's events, until the returned function is called (composables/useRunEvents.ts).
  function onRunEvent(listener: (event: RunEvent) => void): () => void {
    const subscription = api.runs.onDidChangeRun(listener);
    return () => subscription.dispose();
  }

  // An upload of records in parts (components/machines/upload.ts sends them); what it brought is in the list once it
  // is finished.
  const beginImport = (files: UploadFile[]): Promise<{ importId: string; partBytes: number }> => api.imports.begin(files);
  const sendImportPart = (importId: string, part: UploadPart): Promise<{ received: number }> => api.imports.sendPart(importId, part);
  const cancelImport = (importId: string): Promise<void> => api.imports.cancel(importId);
  async function finishImport(importId: string): Promise<ImportReport> {
    const report = await api.imports.finish(importId);
    await refresh();
    return report;
  }

  return { summaries, loaded, error, refresh, record, remove, exported, exportRun, onRunEvent, beginImport, sendImportPart, finishImport, cancelImport };
});
