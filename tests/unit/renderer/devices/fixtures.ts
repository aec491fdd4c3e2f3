// Device reports as `gpu-lab devices --json` printed them (the list's fields at the top level beside `cuda` and
// `telemetry`), checked against the contract's schema on the way in, and a mounted devices page to look at them.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

import { mount } from '@vue/test-utils';
import type { VueWrapper } from '@vue/test-utils';
import { createPinia } from 'pinia';
import type { Pinia } from 'pinia';

import { DEVICE_REPORT } from '../../../../main/common/device-report.ts';
import type { DeviceReport, Telemetry } from '../../../../main/common/device-report.ts';
import { i18n } from '../../../../renderer/i18n/index.ts';
import DevicesView from '../../../../renderer/views/DevicesView.vue';

// devices-h100.json: recorded on the GPU machine's H100; devices-fixture-cpu-only.json: this build machine, no GPU.
export function loadReport(file: 'devices-h100.json' | 'devices-fixture-cpu-only.json'): DeviceReport {
  const json = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../../fixtures', file), 'utf8')) as Record<string, unknown>;
  const { cuda, telemetry, ...list } = json;
  return DEVICE_REPORT.parse({ list, cuda, telemetry });
}

// A reading of the H100 fixture's GPU at `timestamp`, with what a test changes.
export function reading(report: DeviceReport, timestamp: number, change: Partial<Telemetry> = {}): Telemetry {
  const first = report.telemetry[0];
  if (!first) throw new Error('The report has no telemetry reading');
  return { ...first, timestamp, ...change };
}

export function mountDevicesView(pinia: Pinia = createPinia()): VueWrapper {
  return mount(DevicesView, { global: { plugins: [pinia, i18n] }, attachTo: document.body });
}

// The inspector's fields by id ("memoryTotal" → {label, value}), from what is on the page.
export function fieldsOf(wrapper: VueWrapper): Record<string, { group: string; label: string; value: string }> {
  const fields: Record<string, { group: string; label: string; value: string }> = {};
  for (const group of wrapper.findAll('[data-group]')) {
    for (const f of group.findAll('[data-field]')) {
      fields[f.attributes('data-field') ?? ''] = { group: group.attributes('data-group') ?? '', label: f.find('dt').text(), value: f.find('.value').text() };
    }
  }
  return fields;
}
