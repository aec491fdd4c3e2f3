// The screenshots README.md shows, made by tests/e2e/readme-screenshots.spec.ts from the app as it is: `npm run
// screenshots` writes them to docs/screenshots/, every end-to-end run to test-results/screenshots/readme/.
export interface ReadmeShot {
  file: string;
  // What README says under it.
  caption: string;
}

export const README_SHOTS: readonly ReadmeShot[] = [
  { file: 'workbench-running-light.png', caption: 'A run in progress on a CPU-only machine: Run, the progress and the chart in one view' },
  { file: 'finished-run-h100-dark.png', caption: 'A finished matrix-product run on an H100 (recorded), findings led by the headline' },
  { file: 'catalog-dark.png', caption: 'The labs, each with the chart of its last run' },
  { file: 'devices-h100-light.png', caption: 'The devices view on an H100 (recorded): attributes, peaks with their formulas, libraries, telemetry' },
  { file: 'compare-light.png', caption: 'A CPU-only run compared with an H100 run: ratios only where both measured the same work' },
  { file: 'playground-h100-dark.png', caption: 'The kernel playground with a verified SGEMM run on an H100 (recorded)' },
  { file: 'lab-spanish-light.png', caption: 'The vector-function lab in Spanish' },
];

export const README_SHOTS_DIR = 'docs/screenshots';
