// The words of a kernel run's chart (the kernel playground): what the renderer shows and the PDF report prints, kept
// beside the chart function that reads them, as results-catalog.ts is, so that main reads them without the renderer's
// i18n. The renderer's catalogs register this object under "kernelChart"; the PDF's translate function looks the
// same keys up (catalogTranslate({ kernelChart, results })). "{…}" is a named value, "|" separates plural forms.
export const kernelChart = {
  yours: 'Your kernel',
  kind: {
    yours: 'Your kernel',
    reference: 'Reference kernels',
    builtin: 'Built-in kernels',
    cublas: 'cuBLAS library',
    python: 'Your kernel launched from Python',
  },
  ofPeak: '{percent} of peak',
  notTimed: 'not timed',
  peak: 'Peak of the device: {value}',
  notes: {
    yoursNotTimed: 'Your kernel was not timed: {reason}.',
    compileFailed: 'it did not compile',
    verificationFailed: 'its output did not match the reference',
    noTiming: 'no timing came back',
    comparisonError: '{title}: no bar ({reason}).',
    unverified: '{title}: timed, but its output did not match the reference.',
    peakUnknown: 'The device’s peak for this metric is not known, so no peak line is drawn.',
  },
  empty: 'Nothing of this run was timed.',
  description:
    '{metric} of your kernel and the kernels it is compared with: nothing drawn. | {metric} of your kernel and the kernels it is compared with: one bar. | {metric} of your kernel and the kernels it is compared with: {count} bars; the fastest is {fastest}.',
};
