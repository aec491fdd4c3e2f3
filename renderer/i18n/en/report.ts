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
  saved: 'Saved {filename} ({pages} pages).',
  failed: 'The report was not written: {error}',
  running: 'A report can be saved once the run has ended.',
  exports: {
    label: 'Data of run {run}',
    json: 'JSON of run {run}',
    csv: 'CSV of run {run}',
  },
};
