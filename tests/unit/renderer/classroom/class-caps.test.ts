// The teacher's caps form beside the class's poll: the page brings the caps anew every few seconds, and a value the
// teacher is typing must survive it (a poll between fill and Save once sent the old caps back, "saved").
import { mount } from '@vue/test-utils';
import fc from 'fast-check';
import { createPinia } from 'pinia';
import { describe, expect, it } from 'vitest';

import type { ClassCaps as Caps } from '../../../../main/common/contract/classroom.ts';
import ClassCaps from '../../../../renderer/components/classroom/ClassCaps.vue';
import { i18n } from '../../../../renderer/i18n/index.ts';

const KEYS = ['maxPoints', 'maxBytes', 'maxSeconds'] as const;
const caps = fc.record({ maxPoints: fc.integer({ min: 1, max: 100_000 }), maxBytes: fc.integer({ min: 1024, max: 2 ** 40 }), maxSeconds: fc.integer({ min: 10, max: 86_400 }) });

const shown = (w: ReturnType<typeof mount>, key: string): number => Number((w.get(`[data-testid="cap-${key}"]`).element as HTMLInputElement).value);

describe('the class caps form', () => {
  it('keeps each field the teacher changed through a poll, and shows the server’s value in the others', async () => {
    await fc.assert(
      fc.asyncProperty(caps, caps, fc.subarray([...KEYS]), fc.integer({ min: 1, max: 9 }), async (first, polled, edited, typed) => {
        const w = mount(ClassCaps, { props: { caps: first }, global: { plugins: [createPinia(), i18n] } });
        const typedValue = (key: (typeof KEYS)[number]): number => first[key] + typed;
        for (const key of edited) await w.get(`[data-testid="cap-${key}"]`).setValue(String(typedValue(key)));
        // Each poll is a new object, whether or not its values changed.
        await w.setProps({ caps: { ...first } });
        await w.setProps({ caps: { ...polled } satisfies Caps });
        for (const key of KEYS) expect(shown(w, key)).toBe(edited.includes(key) ? typedValue(key) : polled[key]);
        w.unmount();
      }),
      { numRuns: 40 },
    );
  });
});
