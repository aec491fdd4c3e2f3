// Light or dark: the user's choice (remembered), or the system's while the choice is "system", followed live. The
// effective theme is written on <html data-theme>, which the colour tokens in base.css key on; charts read it to
// pick their palette.
import { defineStore } from 'pinia';
import { computed, ref, watchEffect } from 'vue';

import { remembered } from '../composables/remembered.ts';

export type ThemeChoice = 'system' | 'light' | 'dark';

export const useThemeStore = defineStore('theme', () => {
  const choice = remembered<ThemeChoice>('theme', 'system');
  const query = window.matchMedia('(prefers-color-scheme: dark)');
  const systemDark = ref(query.matches);
  // The store lives as long as the app: the listener is never removed.
  query.addEventListener('change', (e) => {
    systemDark.value = e.matches;
  });
  const effective = computed<'light' | 'dark'>(() => (choice.value === 'system' ? (systemDark.value ? 'dark' : 'light') : choice.value));
  watchEffect(() => {
    document.documentElement.dataset.theme = effective.value;
  });
  return { choice, effective };
});
