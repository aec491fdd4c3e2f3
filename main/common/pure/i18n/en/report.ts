// Strings of the PDF report's controls, on a run's page and on a comparison: the author and course it names, the
// button that saves it, and what became of the last one.
export const report = {
  legend: 'PDF report',
  author: 'Author',
  authorHint: 'Your name',
  course: 'Course',
  courseHint: 'Course or group',
  remembered: 'Both are remembered on this computer for the next report.',
  save: 'Save PDF report',
  saving: 'Writing the PDF…',
  saved: 'Saved {filename} ({pages} page). | Saved {filename} ({pages} pages).',
  // What a downloaded file is called (main/common/pure/file-name.ts): the lab's short title and the day each run started,
  // as YYYY-MM-DD so that a folder sorts them; characters a file name cannot hold are taken out after.
  fileNames: {
    run: 'GPU Lab – {lab} – {date}',
    samples: 'GPU Lab – {lab} – {date} – samples',
    comparison: 'GPU Lab – {lab} – {a} vs {b}',
    comparisonLabs: 'GPU Lab – {first} {a} vs {second} {b}',
    labs: 'GPU Lab – every lab – {device} – {date}',
  },
  failed: 'The report was not written: {error}',
  running: 'A report can be saved once the run has ended.',
  labs: {
    title: 'Report of every lab',
    intro: 'One PDF for the course: the newest finished run of each lab on one device (a completed one before one that was cancelled or failed), a chapter each, with a table of contents.',
    device: 'Device',
    caption: 'The runs the report on {device} takes',
    run: 'Run',
    notRun: 'Not run on this device: the report says so.',
    legend: 'PDF of every lab ({count} of {total} labs run)',
    none: 'No lab has a finished run on {device} yet.',
    failed: 'The runs for the report could not be read: {error}',
    noCatalog: 'The labs could not be read, so they are named by their ids: {error}',
    loading: 'Reading which runs the report would take…',
    unknown: 'Which runs the report would take is not known: see the message above.',
  },
  exports: {
    label: 'Data of run {run}',
    json: 'JSON of run {run}',
    csv: 'CSV of run {run}',
  },
};
