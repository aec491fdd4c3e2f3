// A run's chart as a configuration: the break-even drawn where the summary puts it and bounds said in words, log
// axes for sweeps in the sizes' units, waived series named with their reason, failed points never drawn, speedups
// read as baseline ÷ median, the band equal to the record's quartiles, and one drawn point per measured point.
import { describe, expect, it } from 'vitest';

import { countDrawnPoints, runChart } from '../../../../main/common/pure/charts/run-chart.ts';
import { DARK_CHART_THEME, LIGHT_CHART_THEME, mix } from '../../../../main/common/pure/charts/palette.ts';
import { axisTicks, bands, barConfig, lineConfig, marks, scaleBounds, seriesLines, valueAxes } from './config-access.ts';
import { failed, fixtureRun, inputs, syntheticRun, withPoint } from './synthetic-runs.ts';

describe('break-even sizes', () => {
  it('draws a vertical line at each size the H100 run found, labelled with the size, and says the bounds in notes', () => {
    const { record, lab } = fixtureRun('h100-elementwise-breakeven');
    const chart = runChart(record, lab, inputs);
    const vertical = marks(chart).vertical ?? [];
    // add resident ≈ 135 526, mul resident ≈ 1 574 509, exp resident ≈ 176 908 elements in the stored summary.
    expect(vertical.map((m) => m.x)).toEqual([
      record.summary['add.gpu-resident.breakEvenSize'],
      record.summary['mul.gpu-resident.breakEvenSize'],
      record.summary['exp.gpu-resident.breakEvenSize'],
    ]);
    // Each in its operation's panel, which names the operation; interpolated sizes, to the two significant digits they
    // are known to.
    expect(vertical.map((m) => [m.label, m.scale])).toEqual([
      ['GPU resident: 140 k elements', 'y-add'],
      ['GPU resident: 1.6 M elements', 'y-mul'],
      ['GPU resident: 180 k elements', 'y-exp'],
    ]);
    // With copies the GPU never reached 2× up to 10⁸: a bound, said in words, with no line.
    expect(chart.notes).toContain('add GPU with transfers is never 2× faster than add CPU at the sizes measured: its break-even, if there is one, lies beyond 100 M elements.');
    expect(vertical.some((m) => m.label?.includes('with transfers'))).toBe(false);
    expect(chart.description).toContain('add GPU resident becomes 2× faster than add CPU from about 140 k elements.');
  });

  it('marks the N where the GPU overtakes the CPU on the matrix sweep', () => {
    const { record, lab } = fixtureRun('h100-matmul-breakeven');
    const vertical = marks(runChart(record, lab, inputs)).vertical ?? [];
    expect(vertical.map((m) => [m.x, m.label])).toEqual([
      // 331.98 and 125.95, never written to more digits than an interpolation gives.
      [record.summary['gpu-transfers.breakEvenN'], 'GPU with transfers: N = 330'],
      [record.summary['gpu-resident.breakEvenN'], 'GPU resident: N = 130'],
    ]);
  });

  it('says "at most the smallest size" instead of drawing a line when the GPU wins from the first size', () => {
    // Every GPU point 20× faster than the CPU: faster already at N = 100.
    const { record, lab } = syntheticRun('matmul-breakeven', { params: { sizes: [100, 500, 1000, 2000, 5000] } });
    expect(record.summary['gpu-resident.breakEvenNAtMost']).toBe(100);
    const chart = runChart(record, lab, inputs);
    expect(marks(chart).vertical).toEqual([]);
    expect(chart.notes).toContain('GPU resident is already faster than CPU BLAS at the smallest size measured: its break-even is at most N = 100.');
  });

  it('draws the target speedup of the run as a horizontal line', () => {
    const { record, lab } = syntheticRun('elementwise-breakeven', { params: { ops: ['add'], target: 5 } });
    const horizontal = marks(runChart(record, lab, inputs)).horizontal ?? [];
    expect(horizontal.map((h) => [h.y, h.label, h.scale])).toEqual([
      [5, 'target 5×', 'y-add'],
      [1, '1× = as fast as the baseline', 'y-add'],
    ]);
  });
});

describe('axes', () => {
  it('puts size sweeps on a log x axis ticked in the unit of the size', () => {
    const transfer = fixtureRun('h100-transfer');
    expect(axisTicks(runChart(transfer.record, transfer.lab, inputs), 'x')).toEqual({
      type: 'logarithmic',
      labels: ['1 KiB', '4 KiB', '16 KiB', '64 KiB', '256 KiB', '1 MiB', '4 MiB', '16 MiB', '64 MiB', '256 MiB', '1 GiB'],
    });
    const elementwise = fixtureRun('h100-elementwise-breakeven');
    expect(axisTicks(runChart(elementwise.record, elementwise.lab, inputs), 'x')).toEqual({
      type: 'logarithmic',
      labels: ['100', '1 k', '10 k', '100 k', '1 M', '10 M', '100 M'],
    });
    // In a narrow window, every second size.
    expect(axisTicks(runChart(transfer.record, transfer.lab, inputs), 'x', 400).labels).toEqual(['1 KiB', '16 KiB', '256 KiB', '4 MiB', '64 MiB', '1 GiB']);
    const matrices = fixtureRun('h100-matmul-breakeven');
    expect(axisTicks(runChart(matrices.record, matrices.lab, inputs), 'x').labels).toEqual(['100', '500', '1,000', '2,000', '5,000']);
  });

  it('puts the dtypes bars (0.5 to 1370 TFLOP/s) on a log y axis ticked at each power of ten', () => {
    const { record, lab } = fixtureRun('h100-dtypes');
    const y = axisTicks(runChart(record, lab, inputs), 'y');
    expect(y).toEqual({ type: 'logarithmic', labels: ['0.1', '1', '10', '100', '1 k'] });
  });

  it('ticks a log y axis of four decades or more at each power of ten', () => {
    const { record, lab } = fixtureRun('h100-matmul-breakeven');
    // Times, as the lab plots them (a rate with the copies would be the bus's): 13 µs (CPU at N = 100) to 255 ms (CPU
    // at N = 5000), over four decades: ticked at each power of ten.
    expect(axisTicks(runChart(record, lab, inputs), 'y').labels).toEqual(['10 µs', '100 µs', '1 ms', '10 ms', '100 ms']);
  });

  it('ticks a log y axis of under four decades at 1, 2 and 5 times each power of ten', () => {
    const { record, lab } = fixtureRun('h100-matmul-breakeven');
    // The same run's rates, as the lab plotted them before it plotted times: 30 GFLOP/s (GPU with transfers at N = 100)
    // to 46 000 (resident at N = 5000).
    const rates = { ...lab, chart: { x: lab.chart.x, y: { quantity: 'GFLOP/s' as const, log: true } } };
    expect(axisTicks(runChart(record, rates, inputs), 'y').labels).toEqual(['10', '20', '50', '100', '200', '500', '1 k', '2 k', '5 k', '10 k', '20 k', '50 k']);
  });

  it('draws elementwise as small multiples: one panel per operation, on the same axes, the add panel at the top', () => {
    const { record, lab } = fixtureRun('h100-elementwise-breakeven');
    const chart = runChart(record, lab, inputs);
    const axes = valueAxes(chart);
    // Chart.js stacks the first axis of a stack at the foot.
    expect(axes).toEqual(['y-exp', 'y-mul', 'y-add']);
    const bounds = axes.map((id) => scaleBounds(chart, id));
    for (const b of bounds) expect(b).toEqual(bounds[0]);
    for (const ds of lineConfig(chart).data.datasets) {
      const series = lab.series.find((s) => ds.label !== '' && record.points.some((p) => p.series === s.key && ds.data.some((pt) => pt.x === p.x)) && s.inPanel === ds.label && `y-${s.panel}` === ds.yAxisID);
      if (ds.label) expect(series, `${ds.label} on ${ds.yAxisID}`).toBeDefined();
    }
  });
});

describe('what could not be drawn', () => {
  it('names the waived series in one legend entry with their reason, and each of them in a note', () => {
    const { record, lab } = fixtureRun('cpu-elementwise-breakeven');
    const chart = runChart(record, lab, inputs);
    const reason = record.points.find((p) => p.status === 'waived')?.reason ?? '';
    expect(reason).toMatch(/^no CUDA device/);
    expect(seriesLines(lineConfig(chart)).map((s) => s.label)).toContain('6 series waived');
    expect(chart.notes).toContain(
      `Waived (${reason}): add GPU with transfers; add GPU resident; mul GPU with transfers; mul GPU resident; exp GPU with transfers; exp GPU resident.`,
    );
  });

  it('draws the CPU\'s bandwidth, and says why, where a speedup chart has no GPU point to divide by', () => {
    const { record, lab } = fixtureRun('cpu-elementwise-breakeven');
    const chart = runChart(record, lab, inputs);
    const cpuPoints = record.points.filter((p) => p.status === 'ok');
    expect(cpuPoints.length).toBeGreaterThan(0);
    expect(chart.drawnPoints).toBe(cpuPoints.length);
    // The run has ended: not "yet", but why (after how to read the lines).
    expect(chart.notes[0]).toBe('Line: median of the samples. Shaded band: their middle half (first to third quartile).');
    expect(chart.notes[1]).toMatch(/^No GPU series was measured: no CUDA device.*There is no speedup to draw, so the chart shows .*GB\/s/);
    // The CPU of the add panel, named as its panel leaves it.
    const add = lineConfig(chart).data.datasets.find((s) => s.label === 'CPU' && s.yAxisID === 'y-add');
    const first = cpuPoints.find((p) => p.series === 'add-cpu');
    expect(add?.data.find((pt) => pt.x === first?.x)?.y).toBeCloseTo(first?.gbps ?? 0, 6);
    expect(marks(chart).empty).toBe('');
    expect(marks(chart).horizontal).toEqual([]);
  });

  it('says why a chart is empty when nothing of it was measured', () => {
    const { record, lab } = fixtureRun('cpu-elementwise-breakeven');
    const waivedOnly = { ...record, points: record.points.filter((p) => p.status === 'waived') };
    const chart = runChart(waivedOnly, lab, inputs);
    expect(chart.drawnPoints).toBe(0);
    expect(marks(chart).empty).toBe('Nothing to draw: the series of this chart were waived on this system (see below).');
  });

  it('keeps waived bars as named categories on a CPU-only matmul run', () => {
    const { record, lab } = fixtureRun('cpu-matmul');
    const config = barConfig(runChart(record, lab, inputs));
    expect(config.data.labels?.[1]).toEqual(['GPU cuBLAS with', 'transfers', 'N = 1,500', 'waived']);
    // One bar, and the four GPU series waived in one (legend) entry without bars, their reason in the notes.
    expect(config.data.datasets.map((d) => d.data.filter((v) => v !== null).length)).toEqual([1, 0]);
    expect(config.data.datasets[1]?.label).toBe('4 series waived');
    expect(runChart(record, lab, inputs).notes.some((n) => /^Waived \(no CUDA device/.test(n))).toBe(true);
  });

  it('never draws a failed point as a value, on a line or as a bar', () => {
    const sweep = fixtureRun('h100-transfer');
    const broken = withPoint(sweep.record, 'd2d@1048576', (p) => failed(p));
    const chart = runChart(broken, sweep.lab, inputs);
    const d2d = seriesLines(lineConfig(chart)).find((s) => s.label === 'device→device');
    expect(d2d?.data.find((p) => p.x === 1048576)?.y).toBeNaN();
    expect(chart.drawnPoints).toBe(98);
    expect(chart.notes).toContain('device→device: one point failed and is not drawn (CUDA_ERROR_LAUNCH_FAILED in cudaLaunchKernel).');

    const bars = fixtureRun('h100-matmul');
    const barChart = runChart(withPoint(bars.record, 'gpu-cublas', (p) => failed(p)), bars.lab, inputs);
    expect(barConfig(barChart).data.datasets.find((d) => d.label === 'GPU cuBLAS resident — failed')?.data).toEqual([null, null, null, null, null]);
    expect(barChart.drawnPoints).toBe(4);
  });
});

describe('values drawn', () => {
  it('draws each GPU point of a speedup chart at its baseline median ÷ its median', () => {
    const { record, lab } = fixtureRun('h100-elementwise-breakeven');
    const byKey = new Map(record.points.map((p) => [p.key, p]));
    const datasets = lineConfig(runChart(record, lab, inputs)).data.datasets;
    // The series this run has: it was recorded before the lab had PyTorch series.
    const drawn = lab.series.filter((s) => s.baseline && record.points.some((p) => p.series === s.key));
    const lines = datasets.filter((d) => d.label !== '');
    expect(lines.map((l) => [l.label, l.yAxisID])).toEqual(drawn.map((s) => [s.inPanel, `y-${s.panel}`]));
    for (const s of drawn) {
      const line = lines.find((l) => l.label === s.inPanel && l.yAxisID === `y-${s.panel}`);
      for (const point of line?.data ?? []) {
        const gpu = byKey.get(`${s.key}@${point.x}`);
        const cpu = byKey.get(`${s.baseline}@${point.x}`);
        expect(point.y).toBeCloseTo((cpu?.stats?.median ?? 0) / (gpu?.stats?.median ?? 1), 12);
      }
    }
  });

  it('draws the band from the first to the third quartile of the record', () => {
    const { record, lab } = syntheticRun('elementwise-breakeven', { params: { ops: ['add'] } });
    // The same run drawn in milliseconds: the band is q1..q3 as stored.
    const inMs = runChart(record, { ...lab, chart: { x: lab.chart.x, y: { quantity: 'ms', log: true } } }, inputs);
    const cpu = record.points.filter((p) => p.series === 'add-cpu');
    const band = bands(lineConfig(inMs), 'CPU');
    expect(band.low.map((p) => p.y)).toEqual(cpu.map((p) => p.stats?.q1));
    expect(band.high.map((p) => p.y)).toEqual(cpu.map((p) => p.stats?.q3));
    // In GB/s a rate is bytes ÷ time: the band runs from the rate at q3's time to the rate at q1's.
    const inRate = runChart(record, { ...lab, chart: { x: lab.chart.x, y: { quantity: 'GB/s', log: true } } }, inputs);
    const rateBand = bands(lineConfig(inRate), 'CPU');
    rateBand.low.forEach((p, i) => expect(p.y).toBeCloseTo((cpu[i]?.work.bytes ?? 0) / ((cpu[i]?.stats?.q3 ?? 1) * 1e6), 9));
    rateBand.high.forEach((p, i) => expect(p.y).toBeCloseTo((cpu[i]?.work.bytes ?? 0) / ((cpu[i]?.stats?.q1 ?? 1) * 1e6), 9));
  });

  it('puts min–max whiskers on every bar', () => {
    const { record, lab } = fixtureRun('h100-timing-pitfalls');
    const chart = runChart(record, lab, inputs);
    const whiskers = marks(chart).whiskers ?? [];
    expect(whiskers).toHaveLength(8);
    const config = barConfig(chart);
    for (const w of whiskers) {
      const label = config.data.datasets[w.dataset ?? -1]?.label;
      const point = record.points.find((p) => lab.series.find((s) => s.key === p.series)?.label === label);
      expect([w.low, w.high]).toEqual([point?.stats?.min, point?.stats?.max]);
    }
  });

  it.each(['h100-transfer', 'h100-elementwise-breakeven', 'h100-matmul-breakeven', 'h100-dtypes', 'h100-matmul', 'cpu-vector-function', 'cpu-timing-pitfalls'])(
    '%s: draws one value per measured point',
    (name) => {
      const { record, lab } = fixtureRun(name);
      const chart = runChart(record, lab, inputs);
      // A speedup chart draws the GPU points; the CPU points are its baseline.
      const drawable = record.points.filter((p) => p.status === 'ok' && (lab.chart.y.quantity !== 'speedup' || p.device !== 'cpu'));
      expect(chart.drawnPoints).toBe(drawable.length);
      expect(countDrawnPoints(chart.config)).toBe(drawable.length);
    },
  );
});

describe('looks', () => {
  it('gives a series the same colour in every run, its dark variant in the dark theme, and no animation', () => {
    const a = fixtureRun('h100-matmul');
    const b = fixtureRun('cpu-matmul');
    const colour = (chart: ReturnType<typeof runChart>) => barConfig(chart).data.datasets.map((d) => d.backgroundColor);
    // CPU BLAS, the one series both runs measured, in the same colour.
    expect(colour(runChart(a.record, a.lab, inputs))[0]).toEqual(colour(runChart(b.record, b.lab, inputs))[0]);
    expect(colour(runChart(a.record, a.lab, inputs))).toEqual(LIGHT_CHART_THEME.series.slice(0, 5));
    expect(colour(runChart(a.record, a.lab, { ...inputs, theme: DARK_CHART_THEME }))).toEqual(DARK_CHART_THEME.series.slice(0, 5));
    expect(runChart(a.record, a.lab, inputs).config.options?.animation).toBe(false);
  });
});

describe('series that belong together share a hue', () => {
  it('transfer: one hue a direction, pinned memory its deeper shade, PyTorch’s copies in the shade of the engine’s they match', () => {
    const { record, lab } = syntheticRun('transfer', { peers: true });
    const colour = new Map(lineConfig(runChart(record, lab, inputs)).data.datasets.filter((d) => d.label).map((d) => [d.label, d.borderColor]));
    const of = (key: string) => colour.get(lab.series.find((s) => s.key === key)?.label);
    const [h2d, d2h, d2d] = LIGHT_CHART_THEME.series;
    for (const mode of ['sync', 'async']) {
      expect(of(`h2d-pageable-${mode}`)).toBe(h2d);
      expect(of(`d2h-pageable-${mode}`)).toBe(d2h);
      expect(of(`h2d-pinned-${mode}`)).toBe(mix(h2d ?? '', LIGHT_CHART_THEME.text, 0.33));
      expect(of(`d2h-pinned-${mode}`)).toBe(mix(d2h ?? '', LIGHT_CHART_THEME.text, 0.33));
    }
    expect(of('d2d')).toBe(d2d);
    expect(of('torch-h2d-pageable')).toBe(of('h2d-pageable-sync'));
    expect(of('torch-d2h-pinned')).toBe(of('d2h-pinned-sync'));
  });

  it('timing-pitfalls: a pair’s wrong and right timings side by side in one hue, the wrong one paler; each pair its own', () => {
    const { record, lab } = syntheticRun('timing-pitfalls', { peers: true });
    const config = barConfig(runChart(record, lab, inputs));
    const bars = new Map(config.data.datasets.map((d) => [d.label, d]));
    const bar = (key: string) => bars.get(lab.series.find((s) => s.key === key)?.label);
    const pairs = [['gpu-no-sync', 'gpu-events'], ['gpu-cold', 'gpu-warm'], ['cpu-cold', 'cpu-warm'], ['cpu-one-thread', 'cpu-all-threads'], ['torch-no-sync', 'torch-events'], ['torch-cold', 'torch-warm']];
    for (const [wrong, right] of pairs) {
      expect(bar(wrong ?? '')?.borderColor, `${wrong} beside ${right}`).toBe(bar(right ?? '')?.borderColor);
      expect(bar(wrong ?? '')?.backgroundColor).not.toBe(bar(right ?? '')?.backgroundColor);
    }
    expect(new Set(pairs.map(([, right]) => bar(right ?? '')?.borderColor)).size).toBe(pairs.length);
    // Side by side: a pair's bars are neighbours, the wrong one first.
    const order = lab.series.map((s) => s.key);
    for (const [wrong, right] of pairs.slice(0, 4)) expect(order.indexOf(right ?? '') - order.indexOf(wrong ?? '')).toBe(1);
  });

  it('elementwise: a path in the same colour and marker in every panel, PyTorch’s in the engine’s colour', () => {
    const { record, lab } = syntheticRun('elementwise-breakeven', { peers: true });
    const lines = lineConfig(runChart(record, lab, inputs)).data.datasets.filter((d) => d.label);
    for (const path of ['GPU with transfers', 'GPU resident']) {
      const drawn = lines.filter((d) => d.label === path);
      expect(drawn).toHaveLength(3);
      expect(new Set(drawn.map((d) => `${String(d.borderColor)} ${String(d.pointStyle)}`)).size).toBe(1);
    }
    expect(lines.find((d) => d.label === 'PyTorch GPU resident')?.borderColor).toBe(lines.find((d) => d.label === 'GPU resident')?.borderColor);
  });
});

describe('the course’s own code drawn apart from the engine’s', () => {
  it('a sweep draws each Python peer as a dashed line through hollow markers, and the engine’s series as solid lines', () => {
    const { record, lab } = syntheticRun('transfer', { peers: true, params: { directions: ['h2d'], modes: ['sync'] } });
    const datasets = lineConfig(runChart(record, lab, inputs)).data.datasets.filter((d) => d.label);
    const peer = datasets.find((d) => d.label?.startsWith("PyTorch .to('cuda', non_blocking=True)"));
    const ours = datasets.find((d) => d.label?.startsWith('host→device, pinned, sync'));
    expect(peer?.borderDash).toEqual([6, 4]);
    expect(peer?.backgroundColor).not.toBe(peer?.borderColor);
    expect(ours?.borderDash).toBeUndefined();
    expect(ours?.backgroundColor).toBe(ours?.borderColor);
    // Every point of the peer's series drawn, one a size.
    expect(peer?.data.filter((p) => Number.isFinite(p.y)).length).toBe(record.points.filter((p) => p.series === 'torch-h2d-pinned').length);
  });

  it('a chart of categories draws each peer as an outlined, lightly filled bar', () => {
    const { record, lab } = syntheticRun('matmul', { peers: true });
    const datasets = barConfig(runChart(record, lab, inputs)).data.datasets;
    const peer = datasets.find((d) => d.label?.startsWith('PyTorch on the GPU, resident'));
    const ours = datasets.find((d) => d.label?.startsWith('GPU cuBLAS resident'));
    expect(peer?.borderWidth).toBe(2);
    expect(peer?.backgroundColor).toMatch(/^rgba\(/);
    expect(ours?.backgroundColor).not.toMatch(/^rgba\(/);
  });
});
