// A Chart.js chart that follows its data: drawn when the canvas is mounted, redrawn in place (data and options
// replaced, the Chart kept) at most once per animation frame however many times its sources change in between, and
// destroyed on unmount. What the chart says in words (its notes, its description, the points it draws) and the height
// it needs are state beside it.
import type { Ref, ShallowRef, WatchSource } from 'vue';
import { onBeforeUnmount, onMounted, shallowRef, watch } from 'vue';

import type { RunChart } from '../../../main/common/pure/charts/chart-common.ts';
import type { LiveChart } from './chart-setup.ts';
import { drawChart } from './chart-setup.ts';

export interface ChartWords {
  notes: string[];
  description: string;
  drawnPoints: number;
  // The least height the chart reads at (rows of bars, panels, a long legend), in CSS pixels.
  minHeight: number;
}

export interface LiveChartOptions {
  canvas: Readonly<Ref<HTMLCanvasElement | null>>;
  build: () => RunChart;
  // What the chart is a function of: a change to any of them schedules a redraw.
  sources: WatchSource[];
}

export function useLiveChart(options: LiveChartOptions): { chart: ShallowRef<LiveChart | null>; words: ShallowRef<ChartWords> } {
  const chart = shallowRef<LiveChart | null>(null);
  const words = shallowRef<ChartWords>({ notes: [], description: '', drawnPoints: 0, minHeight: 0 });
  let frame = 0;

  function redraw(): void {
    frame = 0;
    const built = options.build();
    words.value = { notes: built.notes, description: built.description, drawnPoints: built.drawnPoints, minHeight: built.minHeight };
    const canvas = options.canvas.value;
    if (!canvas) return;
    if (chart.value?.update(built.config)) return;
    chart.value?.destroy();
    chart.value = drawChart(canvas, built.config);
  }

  function schedule(): void {
    if (frame === 0) frame = requestAnimationFrame(redraw);
  }

  onMounted(redraw);
  watch(options.sources, schedule);
  onBeforeUnmount(() => {
    if (frame !== 0) cancelAnimationFrame(frame);
    frame = 0;
    chart.value?.destroy();
    chart.value = null;
  });
  return { chart, words };
}
