// The stored runs as listRuns returns them for the recorded fixtures (h100-*.json from an H100, cpu-*.json from the
// CPU-only build machine), runs in other states made from them, and the history page mounted on a real router.
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

import { flushPromises, mount } from '@vue/test-utils';
import type { VueWrapper } from '@vue/test-utils';
import { createPinia } from 'pinia';
import { h } from 'vue';
import type { Component } from 'vue';
import { createMemoryHistory, createRouter, RouterView } from 'vue-router';
import type { Router } from 'vue-router';

import { summarizeRun } from '../../../../main/common/run-record.ts';
import { STORED_RECORD } from '../../../../main/runs/stored-record.ts';
import type { RunRecord, RunSummary } from '../../../../main/common/run-record.ts';
import { i18n } from '../../../../renderer/i18n/index.ts';
import HistoryView from '../../../../renderer/views/HistoryView.vue';

const RUNS_DIR = resolve(import.meta.dirname, '../../../fixtures/runs');

export function loadRecord(file: string): RunRecord {
  return STORED_RECORD.parse(JSON.parse(readFileSync(resolve(RUNS_DIR, file), 'utf8')));
}

// Every fixture's summary, in file order (not newest first: the page must sort).
export function fixtureSummaries(): RunSummary[] {
  return readdirSync(RUNS_DIR)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => summarizeRun(loadRecord(f)));
}

export function summaryOf(file: string): RunSummary {
  return summarizeRun(loadRecord(file));
}

// A run started after every fixture and still going: no end, the points measured so far.
export function runningSummary(): RunSummary {
  return { ...summaryOf('cpu-matmul.json'), id: '20261124T090000Z-matmul-live01', status: 'running', createdAt: '2026-11-24T09:00:00.000Z', finishedAt: null, points: 2 };
}

// The record of runningSummary(), as getRun answers while it runs.
export function runningRecord(): RunRecord {
  const base = loadRecord('cpu-matmul.json');
  const summary = runningSummary();
  return { ...base, id: summary.id, status: 'running', createdAt: summary.createdAt, finishedAt: null, points: base.points.slice(0, 2) };
}

// What the run store makes of a record whose process died mid-run (run-store.ts markIfInterrupted).
export function interruptedSummary(): RunSummary {
  return {
    ...summaryOf('h100-transfer.json'),
    id: '20261124T080000Z-transfer-cut001',
    status: 'failed',
    createdAt: '2026-11-24T08:00:00.000Z',
    finishedAt: null,
    points: 40,
    errorCode: 'RUN_INTERRUPTED',
  };
}

// The pages the history links to, as plain placeholders: their own tests are elsewhere.
const Stub = (name: string): Component => ({ name, render: () => h('p', { 'data-testid': name }, name) });

export function historyRouter(): Router {
  return createRouter({
    history: createMemoryHistory(),
    routes: [
      { path: '/labs', name: 'labs', component: Stub('labs') },
      { path: '/runs', name: 'history', component: HistoryView },
      { path: '/runs/:runId', name: 'run', component: Stub('run') },
      { path: '/compare/:first/:second', name: 'compare', component: Stub('compare') },
      { path: '/devices-compared/:lab?', name: 'compare-devices', component: Stub('compare-devices') },
    ],
  });
}

// The page at `path` (a query keeps the filters) in a real router and a fresh Pinia, settled.
export async function mountHistory(path = '/runs'): Promise<{ wrapper: VueWrapper; router: Router }> {
  const router = historyRouter();
  await router.push(path);
  await router.isReady();
  const Root: Component = { render: () => h(RouterView) };
  const wrapper = mount(Root, { global: { plugins: [createPinia(), router, i18n] }, attachTo: document.body });
  await flushPromises();
  return { wrapper, router };
}

export function rowIds(wrapper: VueWrapper): string[] {
  return wrapper.findAll('[data-testid="run-row"]').map((r) => r.attributes('data-run-id') ?? '');
}

export function row(wrapper: VueWrapper, id: string) {
  return wrapper.get(`[data-run-id="${id}"]`);
}
