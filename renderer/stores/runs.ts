// The stored runs: the history list, records fetched by id (kept while they are final), deletion and export.
import { defineStore } from 'pinia';
import { ref, shallowRef } from 'vue';

import type { ExportFormat } from '../../main/common/contract/runs.ts';
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

  // Saved under `filename` where the page names the file for people (composables/file-names.ts), else main's name.
  async function exportRun(runId: string, format: ExportFormat, filename?: string): Promise<void> {
    const file = await api.runs.exportRun(runId, format);
    downloadText(filename ?? file.filename, file.mimeType, file.text);
  }

  return { summaries, loaded, error, refresh, record, remove, exportRun };
});
