// The frame around every view: navigation, the device picker, the theme, the language, the link to main.
export const app = {
  name: 'GPU Lab',
  skipToContent: 'Skip to the content',
  nav: { label: 'Main', labs: 'Labs', devices: 'Devices', playground: 'Kernel playground', history: 'History', labList: 'The labs' },
  device: {
    label: 'Device',
    help: 'The GPU each lab compares with the CPU. With the CPU only, the GPU series are waived.',
    cpuOnly: 'CPU only',
    // A WebGPU adapter that is a program on the CPU (lavapipe, SwiftShader).
    software: '{id} — {name} (software: the CPU)',
    loading: 'Looking for devices…',
  },
  theme: { label: 'Theme', system: 'System', light: 'Light', dark: 'Dark' },
  // The languages are named in themselves (i18n/language.ts), so that a reader finds theirs whatever is shown.
  language: { label: 'Language' },
  connection: {
    connecting: 'Connecting to GPU Lab…',
    closed: 'The connection to GPU Lab dropped; reconnecting. A run in progress goes on without this page.',
  },
  liveRun: { running: '{lab}: {percent}', open: 'Show the run in progress' },
  notFound: { title: 'Nothing here', body: 'This page does not exist.', back: 'Back to the labs' },
  error: { dismiss: 'Dismiss' },
  // How a run stands, wherever a run is shown.
  status: { queued: 'Queued', running: 'Running', completed: 'Completed', waived: 'Nothing measured', cancelled: 'Cancelled', failed: 'Failed' },
  copy: { copy: 'Copy', copied: 'Copied' },
};
