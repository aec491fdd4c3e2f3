// The parameters a student has set for each lab, kept across navigation and reloads until they reset them: values
// as typed (a number field holding "12a" keeps that text, so the schema's message can quote it).
import { defineStore } from 'pinia';
import { ref, watch } from 'vue';

import type { LabDescriptor, LabPreset } from '../../main/common/lab-descriptor.ts';

export type DraftValue = number | string | number[] | string[];
export type Draft = Record<string, DraftValue>;

const STORAGE_KEY = 'gpu-lab.params';

function stored(): Record<string, Draft> {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '{}');
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, Draft>) : {};
  } catch {
    return {};
  }
}

export function defaults(lab: LabDescriptor): Draft {
  return Object.fromEntries(lab.parameters.map((p) => [p.name, Array.isArray(p.default) ? [...p.default] : p.default])) as Draft;
}

function sameValues(a: Draft, b: Draft): boolean {
  return Object.keys({ ...a, ...b }).every((k) => JSON.stringify(a[k]) === JSON.stringify(b[k]));
}

export const useLabParamsStore = defineStore('labParams', () => {
  const drafts = ref<Record<string, Draft>>(stored());
  watch(
    drafts,
    (value) => {
      try {
        localStorage.setItem(STORAGE_KEY, JSON.stringify(value));
      } catch {
        // Not kept across reloads; still used for this page.
      }
    },
    { deep: true },
  );

  // The lab's draft, filled with defaults for parameters it does not hold (a lab that gained a parameter).
  function draftOf(lab: LabDescriptor): Draft {
    const known = new Set(lab.parameters.map((p) => p.name));
    const kept = Object.fromEntries(Object.entries(drafts.value[lab.id] ?? {}).filter(([k]) => known.has(k)));
    return { ...defaults(lab), ...kept };
  }

  function set(lab: LabDescriptor, name: string, value: DraftValue): void {
    drafts.value = { ...drafts.value, [lab.id]: { ...draftOf(lab), [name]: value } };
  }

  function reset(lab: LabDescriptor): void {
    drafts.value = { ...drafts.value, [lab.id]: defaults(lab) };
  }

  function applyPreset(lab: LabDescriptor, preset: LabPreset): void {
    drafts.value = { ...drafts.value, [lab.id]: { ...defaults(lab), ...structuredClone(preset.params) } };
  }

  function replace(lab: LabDescriptor, values: Draft): void {
    drafts.value = { ...drafts.value, [lab.id]: { ...defaults(lab), ...values } };
  }

  // The preset the current values are, if they are one.
  function presetOf(lab: LabDescriptor): LabPreset | null {
    const draft = draftOf(lab);
    return lab.presets.find((p) => sameValues({ ...defaults(lab), ...p.params }, draft)) ?? null;
  }

  return { drafts, draftOf, set, reset, applyPreset, replace, presetOf };
});
