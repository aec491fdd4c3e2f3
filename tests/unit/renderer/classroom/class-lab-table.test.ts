// The teacher's table of one lab (ClassLabTable) over a class's overview: each student's name written as text, never
// as markup; each headline number as the run's finding has it, with its interval; the one student outside the
// class's range said so in words, in English and in Spanish, and no one else; and who has not run the lab.
import { mount, RouterLinkStub } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { describe, expect, it } from 'vitest';

import { classOverview } from '../../../../main/classroom/class-overview.ts';
import type { ClassRun } from '../../../../main/classroom/class-overview.ts';
import type { StoredStudent } from '../../../../main/classroom/class-store.ts';
import { formatFindingValue } from '../../../../main/common/pure/format.ts';
import type { Finding } from '../../../../main/common/run-record.ts';
import ClassLabTable from '../../../../renderer/components/classroom/ClassLabTable.vue';
import { i18n } from '../../../../renderer/i18n/index.ts';
import { useLanguageStore } from '../../../../renderer/stores/language.ts';

const HOSTILE = '<img src=x onerror="document.title=1">Zoë';
const names = ['Ana', 'Bob', 'Cleo', 'Dan', 'Eva', HOSTILE];
const students: StoredStudent[] = names.map((name, i) => ({ id: `s-00000000000${i}`, name, tokenHash: null, joinedAt: '2026-01-01T00:00:00Z', removedAt: null }));
const late: StoredStudent = { id: 's-00000000000f', name: 'Quim', tokenHash: null, joinedAt: '2026-01-01T00:00:00Z', removedAt: null };

function breakEven(value: number, low: number, high: number): Finding {
  return { id: 'gpu-transfers-break-even', message: { key: 'matmul-breakeven.findings.overtakes', values: { series: 'GPU', size: value } }, value, unit: 'N', tone: 'info', interval: { low, high } };
}

const runs: ClassRun[] = students.map((s, i) => {
  const v = s.name === HOSTILE ? 4000 : 300 + 10 * i;
  return { id: `run-${i}`, lab: 'matmul-breakeven', device: 'cuda:0', status: 'completed', createdAt: `2026-01-01T08:0${i}:00Z`, finishedAt: null, student: s, params: { sizes: [100, 500] }, findings: [breakEven(v, v * 0.9, v * 1.1)] };
});
const roster = [...students, late].map((s) => ({ id: s.id, name: s.name, joinedAt: s.joinedAt, runs: 1, kernelRuns: 0 }));
const lab = classOverview({ name: 'HPC', caps: { maxPoints: 1, maxBytes: 1024, maxSeconds: 10 }, roster }, runs).labs.find((l) => l.lab === 'matmul-breakeven');

function mountTable(shown = lab) {
  if (!shown) throw new Error('no lab');
  return mount(ClassLabTable, { props: { lab: shown, title: 'Matrix product break-even' }, global: { plugins: [i18n], stubs: { RouterLink: RouterLinkStub } } });
}

describe('the teacher’s table of a lab', () => {
  setActivePinia(createPinia());

  it('writes each name as text, each number with its interval, and says in words who lies outside the class’s range', () => {
    useLanguageStore().locale = 'en';
    i18n.global.locale.value = 'en';
    const wrapper = mountTable();
    const rows = wrapper.findAll('[data-testid="class-row"]');
    expect(rows.map((r) => r.get('[data-testid="class-student"]').text())).toEqual([HOSTILE, 'Ana', 'Bob', 'Cleo', 'Dan', 'Eva']);
    expect(wrapper.find('img').exists()).toBe(false);
    const first = rows[0];
    expect(first?.find('.value').text()).toBe(formatFindingValue(4000, 'N', 'en'));
    expect(first?.find('.interval').text()).toBe(`${formatFindingValue(3600, 'N', 'en')} – ${formatFindingValue(4400, 'N', 'en')}`);
    const range = lab?.setups[0]?.columns[0]?.range;
    expect(first?.get('[data-testid="class-outside"]').text()).toBe(`above the class’s range (${formatFindingValue(range?.low ?? 0, 'N', 'en')} – ${formatFindingValue(range?.high ?? 0, 'N', 'en')})`);
    expect(wrapper.findAll('[data-testid="class-outside"]')).toHaveLength(1);
    expect(wrapper.get('[data-testid="class-not-run"]').text()).toBe('Not run yet: Quim');
  });

  it('says the same in Spanish', () => {
    useLanguageStore().locale = 'es';
    i18n.global.locale.value = 'es';
    const wrapper = mountTable();
    expect(wrapper.get('[data-testid="class-outside"]').text()).toMatch(/^por encima del rango de la clase \(/);
    expect(wrapper.get('caption').text()).toContain('En cuda:0 · 6 alumnos');
    expect(wrapper.get('[data-testid="class-not-run"]').text()).toBe('Aún sin ejecutarlo: Quim');
    i18n.global.locale.value = 'en';
    useLanguageStore().locale = 'en';
  });

  it('says how many runs of older setups it leaves out, in both languages, and nothing where it leaves none out', () => {
    expect(mountTable().find('[data-testid="class-earlier"]').exists()).toBe(false);
    // Ana runs four more sizes: her three latest setups are shown, the first two runs left out.
    const more = [500, 600, 700, 800].map((n, i): ClassRun => ({ ...(runs[0] as ClassRun), id: `more-${i}`, createdAt: `2026-01-01T09:0${i}:00Z`, params: { sizes: [100, n] } }));
    const wider = classOverview({ name: 'HPC', caps: { maxPoints: 1, maxBytes: 1024, maxSeconds: 10 }, roster }, [...runs, ...more]).labs.find((l) => l.lab === 'matmul-breakeven');
    expect(mountTable(wider).get('[data-testid="class-earlier"]').text()).toBe(
      '2 completed runs of students’ older setups are left out of these tables (each student’s 3 latest setups are shown); the CSV has every run.',
    );
    useLanguageStore().locale = 'es';
    i18n.global.locale.value = 'es';
    expect(mountTable(wider).get('[data-testid="class-earlier"]').text()).toMatch(/^2 ejecuciones completadas de configuraciones anteriores de los alumnos quedan fuera/);
    i18n.global.locale.value = 'en';
    useLanguageStore().locale = 'en';
  });
});
