// The Chart.js parts the run charts use (line and bar charts, linear, log and category axes, the band fill, legend,
// tooltip and the value axis's title above the plot): registered by the app and by the PDF writer alike, and nothing
// else, so the app's bundle leaves the rest of Chart.js out and both draw the same thing.
import {
  BarController,
  BarElement,
  CategoryScale,
  Filler,
  Legend,
  LineController,
  LineElement,
  LinearScale,
  LogarithmicScale,
  PointElement,
  Title,
  Tooltip,
} from 'chart.js';
import type { ChartComponentLike } from 'chart.js';

export const RUN_CHART_PARTS: ChartComponentLike[] = [BarController, BarElement, CategoryScale, Filler, Legend, LineController, LineElement, LinearScale, LogarithmicScale, PointElement, Title, Tooltip];
