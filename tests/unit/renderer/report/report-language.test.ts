// The PDF report is asked for in the app's language: a student reading the app in Spanish gets a Spanish report.
import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { setNumberLocale } from '../../../../main/common/pure/locale.ts';
import type { fakeMain } from '../stores/fake-main.ts';

const main = vi.hoisted(() => ({ current: null as ReturnType<typeof fakeMain> | null }));
vi.mock('../../../../renderer/api/index.ts', async () => {
  const { fakeMain: make } = await import('../stores/fake-main.ts');
  main.current = make();
  return main.current.module();
});
vi.mock('../../../../renderer/composables/download.ts', () => ({ downloadBase64: vi.fn(), downloadText: vi.fn() }));

const { useReportDownload } = await import('../../../../renderer/components/report/use-report-download.ts');
const { useLanguageStore } = await import('../../../../renderer/stores/language.ts');
const { i18n } = await import('../../../../renderer/i18n/index.ts');

function fake(): ReturnType<typeof fakeMain> {
  if (!main.current) throw new Error('the api module was not mocked');
  return main.current;
}

beforeEach(() => {
  localStorage.clear();
  setActivePinia(createPinia());
  fake().calls.length = 0;
  fake().answer('reports.writeReport', () => ({ filename: 'r.pdf', mimeType: 'application/pdf', base64: '', pages: 3 }));
});
afterEach(() => {
  i18n.global.locale.value = 'en';
  setNumberLocale('en');
  localStorage.clear();
});

describe('the PDF report’s language', () => {
  it('follows the language chosen in the app', async () => {
    const language = useLanguageStore();
    const report = useReportDownload(() => ({ runIds: ['r1'], kernelRunIds: [] }));
    await report.save();
    language.choose('es');
    await report.save();
    const locales = fake().calls.filter((c) => c.method === 'reports.writeReport').map((c) => (c.args[0] as { locale?: string }).locale);
    expect(locales).toEqual(['en', 'es']);
    expect(report.saved.value).toEqual({ filename: 'r.pdf', pages: 3 });
  });
});
