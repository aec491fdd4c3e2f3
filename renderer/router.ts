// Routes by the user's words: the labs, one lab, the devices, the history, one stored run, two runs compared, the
// kernel playground (an exercise, one stored kernel run), one lab across every device that ran it, and a class's
// teacher's view of the class.
// Hash history: the same build works under app:// in Electron and over HTTP in serve mode without server routes.
// Views other than the catalog load on first visit, keeping the first load small.
// Every page opens at its top; Back and Forward return to where the reader was, once the page is tall enough again
// (its view and its data arrive after the navigation). A change of the query alone (the history's filters) keeps the
// place.
import { createRouter, createWebHashHistory } from 'vue-router';
import type { RouterScrollBehavior } from 'vue-router';

import LabsCatalogView from './views/LabsCatalogView.vue';

// How long a saved place waits for its page to grow tall enough to hold it.
const RESTORE_WAIT_MS = 2000;

function tallEnough(top: number): boolean {
  return document.documentElement.scrollHeight - window.innerHeight >= top;
}

function whenTallEnough(top: number): Promise<void> {
  const until = performance.now() + RESTORE_WAIT_MS;
  return new Promise((resolve) => {
    const look = (): void => {
      if (tallEnough(top) || performance.now() > until) resolve();
      else requestAnimationFrame(look);
    };
    look();
  });
}

export const scrollBehavior: RouterScrollBehavior = async (to, from, saved) => {
  if (saved) {
    await whenTallEnough(saved.top ?? 0);
    return saved;
  }
  if (to.path === from.path) return false;
  return { top: 0, left: 0 };
};

export const router = createRouter({
  history: createWebHashHistory(),
  scrollBehavior,
  routes: [
    { path: '/', redirect: '/labs' },
    { path: '/labs', name: 'labs', component: LabsCatalogView },
    { path: '/labs/:labId', name: 'lab', component: () => import('./views/LabView.vue'), props: true },
    { path: '/devices', name: 'devices', component: () => import('./views/DevicesView.vue') },
    { path: '/runs', name: 'history', component: () => import('./views/HistoryView.vue') },
    { path: '/runs/:runId', name: 'run', component: () => import('./views/RunView.vue'), props: true },
    { path: '/playground', name: 'playground', component: () => import('./views/PlaygroundView.vue') },
    { path: '/playground/runs/:runId', name: 'kernel-run', component: () => import('./views/PlaygroundView.vue'), props: true },
    { path: '/playground/:exercise', name: 'exercise', component: () => import('./views/PlaygroundView.vue'), props: true },
    { path: '/class', name: 'class', component: () => import('./views/ClassView.vue') },
    { path: '/compare/:first/:second', name: 'compare', component: () => import('./views/CompareView.vue'), props: true },
    { path: '/devices-compared/:lab?', name: 'compare-devices', component: () => import('./views/DevicesCompareView.vue'), props: true },
    { path: '/:rest(.*)*', name: 'not-found', component: () => import('./views/NotFoundView.vue') },
  ],
});
