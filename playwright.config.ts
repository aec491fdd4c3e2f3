// End-to-end tests: the renderer in Debian's Chromium against serve mode (a real lab host, compute host and run
// store), and the Electron shell where an Electron binary exists. One worker: the labs measure the machine's cores.
import { defineConfig } from '@playwright/test';

const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export default defineConfig({
  outputDir: 'test-results/e2e',
  workers: 1,
  fullyParallel: false,
  timeout: 120_000,
  expect: { timeout: 20_000 },
  reporter: [['list']],
  use: {
    viewport: { width: 1280, height: 900 },
    trace: 'retain-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      testDir: 'tests/e2e',
      use: {
        browserName: 'chromium',
        launchOptions: { executablePath: process.env.GPU_LAB_CHROMIUM ?? '/usr/bin/chromium', args: chromiumArgs },
      },
    },
    { name: 'electron', testDir: 'tests/e2e-electron' },
  ],
});
