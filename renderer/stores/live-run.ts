// The run in progress, as it streams: its record grows point by point, its progress and findings arrive as events.
// Any page that opens (or reloads) while a run goes on picks it up: the record so far from main, then the events.
import { defineStore } from 'pinia';
import { computed, ref, shallowRef } from 'vue';

import type { RunEvent, RunProgress, StartRunRequest } from '../../main/common/contract/runs.ts';
import type { RunRecord } from '../../main/common/run-record.ts';
import { api, errorText, transport } from '../api/index.ts';
import { useRunsStore } from './runs.ts';

export const useLiveRunStore = defineStore('liveRun', () => {
  const runId = ref<string | null>(null);
  const record = shallowRef<RunRecord | null>(null);
  const progress = shallowRef<RunProgress | null>(null);
  const error = ref<string | null>(null);
  const cancelling = ref(false);
  // Events that arrive while the record is being fetched, applied once it is there.
  let buffered: RunEvent[] = [];
  let fetching = false;

  const active = computed(() => record.value !== null && (record.value.status === 'running' || record.value.status === 'queued'));

  function apply(e: RunEvent): void {
    const r = record.value;
    if (!r) return;
    switch (e.kind) {
      case 'started':
        record.value = { ...r, status: 'running', device: e.device, params: e.params, ...(e.plan ? { plan: e.plan } : {}) };
        return;
      case 'progress':
        progress.value = e.progress;
        return;
      case 'point':
        if (r.points.some((p) => p.key === e.point.key)) return;
        record.value = { ...r, points: [...r.points, e.point] };
        return;
      case 'finding':
        // A finding of the points so far is sent again under its id when its text changes.
        record.value = { ...r, findings: [...r.findings.filter((f) => f.id !== e.finding.id), e.finding] };
        return;
      default:
        // The run ended: the stored record is the complete one (summary, final findings, status).
        progress.value = null;
        cancelling.value = false;
        void attach(e.runId);
        void useRunsStore().refresh();
    }
  }

  async function attach(id: string): Promise<void> {
    runId.value = id;
    fetching = true;
    try {
      const [fetched, latest] = await Promise.all([api.runs.getRun(id), api.runs.getRunProgress(id)]);
      if (runId.value !== id) return;
      record.value = fetched;
      progress.value = latest;
      error.value = null;
    } catch (err) {
      error.value = errorText(err);
    } finally {
      fetching = false;
      const pending = buffered.filter((e) => e.runId === id);
      buffered = [];
      for (const e of pending) apply(e);
    }
  }

  function onEvent(e: RunEvent): void {
    // A run started elsewhere (another window, the command line's server) is followed when nothing else is.
    if (e.kind === 'started' && e.runId !== runId.value && !active.value) {
      void attach(e.runId);
      return;
    }
    if (e.runId !== runId.value) return;
    if (fetching) buffered.push(e);
    else apply(e);
  }

  async function start(request: StartRunRequest): Promise<void> {
    error.value = null;
    const { runId: id } = await api.runs.startRun(request);
    await attach(id);
  }

  async function cancel(): Promise<void> {
    if (!runId.value) return;
    cancelling.value = true;
    try {
      await api.runs.cancelRun(runId.value);
    } catch (err) {
      cancelling.value = false;
      error.value = errorText(err);
    }
  }

  // After a reload or a reconnect: the newest run still in progress, if there is one.
  async function resume(): Promise<void> {
    try {
      const runs = await api.runs.listRuns();
      const running = runs.find((s) => s.status === 'running' || s.status === 'queued');
      if (running) await attach(running.id);
      else if (runId.value) await attach(runId.value);
    } catch (err) {
      error.value = errorText(err);
    }
  }

  api.runs.onDidChangeRun(onEvent);
  transport.onState((state) => {
    if (state === 'open') void resume();
  });

  return { runId, record, progress, error, cancelling, active, start, cancel, attach, resume };
});
