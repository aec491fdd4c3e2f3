// The report's charts: the renderer's own chart configurations (main/common/pure/charts/, plain functions of the record)
// drawn by Chart.js on a headless canvas (@napi-rs/canvas, prebuilt from the npm registry), so that the PDF shows
// the chart the app shows. Drawn at twice the size they take on the page (a 2× raster, sharp when printed), with
// animation off and the light palette, and with the same Chart.js parts the app registers.
import type { Canvas } from '@napi-rs/canvas';
import { createCanvas } from '@napi-rs/canvas';
import { Chart } from 'chart.js';
import type { ChartConfiguration } from 'chart.js';

import type { RunChartConfig } from '../common/pure/charts/chart-common.ts';
import { RUN_CHART_PARTS } from '../common/pure/charts/chart-parts.ts';
import { CHART_FONT_FAMILY, registerCanvasFonts } from './fonts.ts';
import { rgbPngOnWhite } from './rgb-png.ts';

let chartReady = false;

function prepare(): void {
  if (chartReady) return;
  registerCanvasFonts();
  Chart.register(...RUN_CHART_PARTS);
  Chart.defaults.font.family = CHART_FONT_FAMILY;
  chartReady = true;
}

export interface ChartImageSize {
  // In CSS pixels, as the chart's fonts and paddings are sized; the image has `scale` times as many pixels.
  width: number;
  height: number;
  scale: number;
}

// A chart laid out 800 CSS pixels wide, room enough for five bars' names and speedups side by side, and shown 491
// points wide: its 12 px labels read at about 7.4 pt on paper, as the tables do.
export const REPORT_CHART: ChartImageSize = { width: 800, height: 450, scale: 2 };

// The report's size for a chart that needs more height than most (rows of bars, panels): as wide, at least as tall.
export function reportChartSize(minHeight: number): ChartImageSize {
  return { ...REPORT_CHART, height: Math.max(REPORT_CHART.height, minHeight) };
}

// The height a chart takes on the page, at the layout's full width.
export function chartHeight(layout: { width: number }, size: ChartImageSize = REPORT_CHART): number {
  return (layout.width * size.height) / size.width;
}

// Chart.js reads its canvas through the DOM's types; the headless canvas implements what it uses.
type ChartItem = ConstructorParameters<typeof Chart>[0];

// A chart drawn headless at `size`, handed to `use` before it is destroyed: what the PDF embeds (chartPng), and what
// a test reads of a chart as drawn (where its marks' labels went).
export function withHeadlessChart<T>(config: RunChartConfig, size: ChartImageSize, use: (chart: Chart, canvas: Canvas) => T): T {
  prepare();
  // Created at the chart's size in CSS pixels: Chart.js multiplies the canvas by devicePixelRatio itself. Not
  // responsive: there is no container to follow.
  const canvas = createCanvas(size.width, size.height);
  const options = { ...config.options, responsive: false, maintainAspectRatio: false, animation: false as const, devicePixelRatio: size.scale };
  const headless = { ...config, options } as ChartConfiguration;
  const chart = new Chart(canvas as unknown as ChartItem, headless);
  try {
    return use(chart, canvas);
  } finally {
    chart.destroy();
  }
}

export function chartPng(config: RunChartConfig, size: ChartImageSize = REPORT_CHART): Buffer {
  return withHeadlessChart(config, size, (_chart, canvas) => rgbPngOnWhite(canvas.width, canvas.height, canvas.data()));
}
