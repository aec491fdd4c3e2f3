// Routes by the user's words: the labs, one lab, the devices, the history, one stored run, two runs compared, the
// kernel playground (an exercise, one stored kernel run), one lab across every device that ran it.
// Hash history: the same build works under app:// in Electron and over HTTP in serve mode without server routes.
// Views other than the catalog load on first visit, keeping the first load small.
import { createRouter, createWebHashHistory } from 'vue-router';

import LabsCatalogView from './views/LabsCatalogView.vue';

export const router = createRouter({
  history: createWebHashHistory(),
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
    { path: '/compare/:first/:second', name: 'compare', component: () => import('./views/CompareView.vue'), props: true },
    { path: '/devices-compared/:lab?', name: 'compare-devices', component: () => import('./views/DevicesCompareView.vue'), props: true },
    { path: '/:rest(.*)*', name: 'not-found', component: () => import('./views/NotFoundView.vue') },
  ],
});
