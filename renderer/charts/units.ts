// Formats the quantities the labs report the way a reader expects them: a time in the unit that gives 3–4
// significant digits, bandwidth in GB/s (10⁹ bytes, as nvbandwidth and the vendors' datasheets count), sizes in
// binary units (KiB, MiB, GiB, as the transfer lab's sizes are powers of two).

export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return '—';
  const abs = Math.abs(ms);
  if (abs >= 1000) return `${(ms / 1000).toPrecision(4)} s`;
  if (abs >= 1) return `${ms.toPrecision(4)} ms`;
  if (abs >= 1e-3) return `${(ms * 1e3).toPrecision(4)} µs`;
  return `${(ms * 1e6).toPrecision(3)} ns`;
}

export function formatRate(value: number, unit: 'GB/s' | 'GFLOP/s'): string {
  if (!Number.isFinite(value)) return '—';
  if (unit === 'GFLOP/s' && value >= 1000) return `${(value / 1000).toPrecision(4)} TFLOP/s`;
  if (unit === 'GB/s' && value >= 1000) return `${(value / 1000).toPrecision(4)} TB/s`;
  return `${value.toPrecision(4)} ${unit}`;
}

const BINARY_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'] as const;

export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '—';
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < BINARY_UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  const digits = Number.isInteger(value) ? String(value) : value.toPrecision(3);
  return `${digits} ${BINARY_UNITS[unit]}`;
}
