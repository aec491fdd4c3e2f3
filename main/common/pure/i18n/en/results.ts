// The words of the results part of the app: a run's chart, its results table, and two runs compared. They live here,
// beside the chart and table functions that read them through a translate function, because two readers need them:
// the renderer's vue-i18n catalog (renderer/i18n/en/results.ts re-exports this object under "results") and the PDF
// report that main writes without the renderer (catalog-translate.ts looks the same keys up). In these messages "|"
// separates plural forms and "{…}" is a named value, as vue-i18n reads them.
export const results = {
  status: { ok: 'measured', failed: 'failed', waived: 'waived', cancelled: 'not measured' },
  chart: {
    axis: {
      bytes: 'Copy size (log scale)',
      elements: 'Elements per array (log scale)',
      matrixN: 'Matrix size N (log scale)',
      gbps: 'Bandwidth in GB/s (higher is faster)',
      gflops: 'Throughput in GFLOP/s (higher is faster)',
      tflops: 'Throughput in TFLOP/s (higher is faster)',
      ms: 'Median time (lower is faster)',
      speedup: 'Speedup over the baseline (higher is faster)',
      logScale: '{title}, log scale',
    },
    legend: {
      waived: '{series} — waived',
      // Series waived together, one legend entry per reason; the reason is said under the chart, where it has room.
      waivedMany: '{count} series waived',
      failed: '{series} — failed',
      notMeasured: '{series} — not measured',
    },
    notes: {
      waived: 'Waived ({reason}): {series}.',
      noReason: 'no reason recorded',
      partly: '{series} ({count} of {total} points)',
      failed: '{series}: one point failed and is not drawn ({reason}). | {series}: {count} points failed and are not drawn (first: {reason}).',
      cancelled: 'One point was not measured: {reason}. | {count} points were not measured: {reason}.',
      // While the run goes on; once it has ended, with the reason, or without one where none was recorded.
      speedupFallback: 'No GPU series has a measured point yet, so there is no speedup to draw: the chart shows {y} of what was measured instead.',
      speedupFallbackFinal: 'No GPU series was measured: {reason}. There is no speedup to draw, so the chart shows {y} of what was measured instead.',
      speedupFallbackNone: 'No GPU series was measured, so there is no speedup to draw: the chart shows {y} of what was measured instead.',
    },
    spread: {
      band: 'Line: median of the samples. Shaded band: their middle half (first to third quartile).',
      whiskers: 'Bar: median of the samples. Whiskers: fastest to slowest sample (min to max).',
    },
    speedupDefinition: 'Speedup = median time of the baseline ({baselines}) ÷ median time of the series: above 1× the series is faster.',
    target: 'target {target}',
    parity: '1× = as fast as the baseline',
    empty: {
      none: 'No points measured yet.',
      noneFinal: 'No points were measured.',
      waived: 'Nothing to draw: the series of this chart were waived on this system (see below).',
      nothing: 'Nothing to draw: no point of this chart was measured (see below).',
    },
    speedupTick: '{speedup} vs {baseline}',
    integerOps: 'int8 counts integer operations: its bar is in TOP/s (10¹² operations per second), not TFLOP/s.',
    tooltip: { median: 'median {median}', range: 'samples {min} to {max}' },
    description: {
      sweep: '{lab}: {y} against {x}, no points drawn. | {lab}: {y} against {x}, one point drawn. | {lab}: {y} against {x}, {points} points drawn in {series} series.',
      bars: '{lab}: {y}, no bars drawn. | {lab}: {y}, one bar drawn. | {lab}: {y}, {points} bars in {categories} groups.',
    },
    size: { bytes: '{size}', elements: '{size} elements', matrixN: 'N = {size}' },
    breakEven: {
      line: '{series}: {size}',
      crossing: {
        explain: 'Dashed vertical lines: the size where each series overtakes its baseline, interpolated on log-log axes between the sizes measured.',
        at: '{series} overtakes {baseline} from about {size}.',
        atMost: '{series} is already faster than {baseline} at the smallest size measured: its break-even is at most {size}.',
        above: '{series} is not faster than {baseline} at any size measured: its break-even, if there is one, lies beyond {size}.',
      },
      target: {
        explain: 'Dashed vertical lines: the size where each series becomes {target} faster than its baseline, interpolated on log-log axes between the sizes measured.',
        at: '{series} becomes {target} faster than {baseline} from about {size}.',
        atMost: '{series} is already {target} faster than {baseline} at the smallest size measured: its break-even is at most {size}.',
        above: '{series} is never {target} faster than {baseline} at the sizes measured: its break-even, if there is one, lies beyond {size}.',
      },
    },
  },
  table: {
    caption: 'Every point of the run: the median time with its 95 % confidence interval, the samples it rests on and their spread, the rate, its share of the device’s theoretical peak (marked “est.” where the peak is the CPU’s estimate, which a rate can pass), the speedup over its baseline, and the check of its result.',
    empty: 'No points measured yet.',
    waivedOnce: 'One point is waived: {reason}. | {count} points are waived, all for the same reason: {reason}.',
    columns: {
      point: 'Point',
      device: 'Device',
      status: 'Status',
      median: 'Median',
      interval: 'Median’s 95 % CI',
      samples: 'Samples',
      iqr: 'IQR',
      range: 'Min – max',
      // The app's table: the median's interval, then the IQR and min – max of the samples, in one column.
      spread: 'Spread',
      rate: 'Rate',
      peak: '% of peak',
      speedup: 'Speedup',
      verified: 'Verified',
    },
    // Why sampling stopped short of a steady median, and a count too small for an interval (fewer than 6).
    samples: {
      budget: '{count}, time budget spent',
      cap: '{count}, sample cap reached',
      tooFew: '{count} sample: too few to judge | {count} samples: too few to judge',
    },
    // A share of the CPU's estimated peak (common/cpu-peaks.ts): marked as an estimate, shown as it is over 100 %.
    peakEstimate: '{share} (est.)',
    // A point measured by the course's own code, not GPU Lab's engine ({library}: NumPy, PyTorch, CuPy or Numba).
    peer: 'Python · {library}',
    peakMeasured: '{share} (meas.)',
    peakMeasuredHelp: 'A share of the memory bandwidth this CPU was measured to reach (a STREAM-style add on every core, shown with the device), not of a theoretical peak: a point may pass it.',
    peakEstimateHelp: 'A share of the CPU’s estimated peak (shown with the device), not of a measured or tabled one: the estimate is a guide, and a share over 100 % means it is low.',
    speedupOver: 'over {baseline}',
    iqr: 'IQR {iqr}',
    noisy: 'noisy',
    noisyHelp: 'The median is uncertain by more than ±5 % (its 95 % confidence interval): another program, a changing clock or a thermal limit moved the samples.',
    verified: {
      passed: 'Result correct: relative error {error}, tolerance {tolerance}',
      failed: 'Result wrong: relative error {error}, tolerance {tolerance}',
      unchecked: 'Result not checked',
    },
  },
  chartView: {
    notesLabel: 'About this chart',
  },
  compare: {
    title: 'Two runs compared',
    // The heading once both runs are read: “Matrix product: run of 25 Nov 2026 on cuda:0 vs run of 23 Nov on the CPU”;
    // {onA} and {onB} are history.run.on or onCpu.
    heading: '{lab}: run of {a} {onA} vs run of {b} {onB}',
    headingLabs: '{first}, run of {a} {onA}, vs {second}, run of {b} {onB}',
    loading: 'Loading both runs…',
    loadFailed: 'Could not load run {run}: {error}',
    run: 'Run {run}',
    legend: '{series} ({run})',
    absent: 'not in this run',
    onlyIn: 'only in run {run}',
    // The same point of each run measured different work (another size, another parameter): no ratio, no verdict.
    notComparable: '{what}: not comparable',
    differs: '{a} vs {b}',
    differentWork: 'different work',
    tie: 'cannot be told apart',
    faster: 'run {run} faster',
    chartNote: 'Solid lines: run A. Dashed lines: run B. Medians only; each run’s own page shows its spread.',
    chartNoteBars: 'Filled bars: run A. Outlined bars: run B. Medians only; each run’s own page shows its spread.',
    // A speedup lab's runs where one or neither has a GPU series measured: what both measured instead.
    fallback: 'Not both runs measured a speedup (one needs a GPU series measured): the chart compares {y} instead, which both runs measured.',
    description: '{lab}, two runs: {y}, {points} points drawn.',
    differentLabs: 'These runs are of different labs ({first} and {second}): their points measure different things and are not compared. Their summaries are side by side below.',
    labUnknown: 'The lab {lab} of these runs is not known to this version of GPU Lab: the points are compared without a chart.',
    facts: {
      caption: 'The two runs',
      lab: 'Lab',
      device: 'Device',
      date: 'Started',
      status: 'Status',
      points: 'Points',
      app: 'App version',
    },
    params: { caption: 'Parameters (those that differ are marked)', name: 'Parameter', differs: 'differs' },
    ratios: {
      caption: 'Each point measured in both runs: median times, B ÷ A (below 1× run B took less time), and which run was faster. Where the middle halves of the samples overlap, neither is called faster.',
      point: 'Point',
      medianA: 'Median, run A',
      medianB: 'Median, run B',
      ratio: 'B ÷ A',
      faster: 'Faster',
    },
    runStatus: { queued: 'queued', running: 'running', completed: 'completed', waived: 'nothing measured', cancelled: 'cancelled', failed: 'failed' },
  },
};
