// Strings of the history: the stored runs, their filters, deletion, export and the choice of two runs to compare.
export const history = {
  title: 'History',
  intro: 'Every run kept on this computer, newest first. Open one to see its results, export its data, or tick two to compare them.',
  loading: 'Reading the stored runs…',
  failed: 'The stored runs could not be read: {error}',
  retry: 'Try again',
  empty: {
    title: 'No runs yet',
    body: 'Open a lab, choose its parameters and press Run: every run is kept here, with its samples, to open again, export or compare.',
    action: 'Go to the labs',
  },
  filters: {
    label: 'Filter the runs',
    lab: 'Lab',
    device: 'Device',
    allLabs: 'All labs',
    allDevices: 'All devices',
    cpuOnly: '{id} (CPU only)',
    // Chosen by the number of runs stored: “1 of 1 run”, “3 of 14 runs”. Not {n}: vue-i18n fills {n} with that number.
    count: '{shown} of {total} run | {shown} of {total} runs',
    noMatch: 'No run matches these filters.',
    clear: 'Show all runs',
  },
  table: {
    caption: 'Stored runs, newest first',
    compare: 'Compare',
    lab: 'Lab',
    device: 'Device',
    started: 'Started',
    duration: 'Duration',
    status: 'Status',
    points: 'Points',
    pointsHint: 'Measurements in the run: one per size and series of the lab.',
    export: 'Export',
    actions: 'Actions',
    // The number the run leads with (its lab's headline finding), the finding's sentence on hover.
    result: 'Result',
  },
  run: {
    // How a run is named in buttons and messages: its lab and when it started.
    name: '{lab} of {date}',
    notFinished: 'not finished',
    // Where a run ran, in a heading: “run of 23 Nov 2026 on cuda:0”, “… on the CPU”.
    on: 'on {device}',
    // Under the lab where the table is narrow.
    points: '{count} point | {count} points',
    onCpu: 'on the CPU',
    // Under the lab: what the run was run with, where it differs from the lab's defaults.
    defaults: 'default parameters',
    changed: 'Parameters changed from the defaults: {params}',
  },
  // A run's headline number, by what it counts; a break-even size is read between two measured sizes.
  headline: {
    n: 'N ≈ {n}',
    elements: '≈ {count} elements',
    points: '{count} point | {count} points',
  },
  duration: {
    ms: '{value} ms',
    seconds: '{value} s',
    minutes: '{minutes} min {seconds} s',
    hours: '{hours} h {minutes} min',
  },
  status: {
    interrupted: 'GPU Lab stopped before the run ended; the points measured until then are kept.',
  },
  actions: {
    open: 'Open run {run}',
    delete: 'Delete',
    deleteLabel: 'Delete run {run}',
    deleteRunning: 'A run in progress cannot be deleted: cancel it on its lab’s page first, or wait for it to end.',
    json: 'JSON',
    // Each holds its button's visible text, so that a voice command naming the button finds it.
    jsonLabel: 'Export run {run}: JSON, the whole record with every sample',
    csv: 'Points CSV',
    csvLabel: 'Export run {run}: Points CSV, one row per point with its statistics',
    samples: 'Samples CSV',
    samplesLabel: 'Export run {run}: Samples CSV, one row per raw sample',
    exportFailed: 'The export of {run} failed: {error}',
    deleted: 'Deleted the run {run}.',
  },
  confirm: {
    title: 'Delete this run?',
    // Chosen by the run's points: none (a run that failed at once), one, several.
    body: 'The run {run} on {device}, which measured no point, will be deleted from this computer. This cannot be undone; export it first if you may need its data. | The run {run} on {device}, with its one point, will be deleted from this computer. This cannot be undone; export it first if you may need its data. | The run {run} on {device}, with its {points} points, will be deleted from this computer. This cannot be undone; export it first if you may need its data.',
    delete: 'Delete the run',
    deleting: 'Deleting…',
    keep: 'Keep it',
    failed: 'The run was not deleted: {error}',
  },
  compare: {
    title: 'Compare two runs',
    pickLabel: 'Compare run {run}',
    hint: 'Tick two runs in the Compare column.',
    // Chosen by how many are picked, one or both (none shows the hint instead).
    picked: 'One of two runs picked: | Both runs picked:',
    remove: 'Untick {run}',
    button: 'Compare',
    tooMany: 'Two runs are already picked: untick one of them before picking {run}.',
    sameLab: 'Both runs are of the same lab: their charts are drawn over each other.',
    differentLabs:
      'These runs are of different labs: the comparison shows them side by side, but draws overlaid charts only for two runs of the same lab.',
  },
};
