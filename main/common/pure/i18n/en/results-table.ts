// The words of the app's results table (renderer/components/results/): one row per point, sortable, its waived and
// Python rows in groups of their own, a point's samples a click away, the whole run copied as CSV. Its figures are
// the ones results.ts words for the chart and the PDF.
export const resultsTable = {
  label: 'Results, one row per point',
  columns: {
    series: 'Series',
    size: 'Size',
    median: 'Median ± 95 % CI',
    rate: 'Rate',
    peak: '% of peak',
    speedup: 'Speedup',
    samples: 'Samples',
    verified: 'Verified',
  },
  // On a column's header button, for screen readers and on hover: the order a click gives.
  sortAscending: 'Sort by {column}, smallest first',
  sortDescending: 'Sort by {column}, largest first',
  groups: {
    measured: 'Measured by GPU Lab: {count} point | Measured by GPU Lab: {count} points',
    peer: 'The course’s Python: {count} point | The course’s Python: {count} points',
    waived: 'Waived: {count} point | Waived: {count} points',
    // Every waived point for the one reason, said on its group's line.
    waivedWhy: 'Waived: {count} point ({reason}) | Waived: {count} points, all for the same reason ({reason})',
  },
  // Beside the speedup, on hover: what it is over.
  speedupOver: '{speedup} over {baseline}',
  copy: {
    button: 'Copy as CSV',
    copied: 'Copied: {count} point as CSV | Copied: {count} points as CSV, the columns of the CSV export',
    failed: 'Could not copy: {error}',
    live: 'The CSV can be copied once the run has ended.',
  },
  samples: {
    // After the series' name on the row's button, for screen readers: the size, and what the button does.
    // After the series' name on a row's button, for screen readers: the point's size and what the button does.
    show: ', {size}: show its samples',
    showPoint: ': show its samples',
    title: 'Samples of {point}',
    hint: 'Pick a row to see the samples its median rests on.',
    close: 'Close the samples',
    clock: { events: 'Device time, CUDA events', host: 'Host clock', 'host-nosync': 'Host clock, stopped when the launch returns' },
    count: 'One sample, in the order taken ({clock}): | {count} samples, in the order taken ({clock}):',
    median: 'Median {median}; its 95 % confidence interval {low} – {high} ({interval}).',
    medianNoInterval: 'Median {median}; too few samples for a confidence interval.',
    spread: 'Middle half (IQR) {iqr}; fastest {min}, slowest {max}.',
    none: 'No samples: {reason}',
  },
};
