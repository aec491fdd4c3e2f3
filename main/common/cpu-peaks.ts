// An estimate of a CPU's peak FLOP/s, labelled as one: physical cores × the maximum clock × SIMD lanes (from the CPU's
// flags) × FMA units per core (a small table by microarchitecture) × 2 FLOP per fused multiply-add. Turbo limits
// with many cores busy, AVX-512 clock offsets and a VM's view of the host all make a real CPU slower (or, with a base
// clock only, faster) than this: a share of it is a guide, and a share over 100 % is shown with this source, never
// clamped. Where the microarchitecture or the clock is unknown there is no estimate, and `reason` says why.
import { msg } from './pure/message.ts';
import type { Message } from './pure/message.ts';

export interface CpuFacts {
  vendor: string;
  family: number | null;
  model: number | null;
  modelName: string;
  physicalCores: number;
  flags: readonly string[];
  // cpufreq's cpuinfo_max_freq, or null where it cannot be read (most VMs).
  maxClockMHz: number | null;
}

export interface CpuPeakEstimate {
  fp32Gflops: number | null;
  fp64Gflops: number | null;
  // "estimate: 16 cores × 3500 MHz (cpufreq maximum) × 16 fp32 lanes (AVX-512) × 2 FMA units × 2 FLOP = 3584 GFLOP/s"
  fp32Formula: string;
  fp64Formula: string;
  // Why there is no estimate, or null; `why` says it as a message (the reasons part of the catalogs).
  reason: string | null;
  why: Message | null;
}

interface FmaUnits {
  units: number;
  arch: string;
}

// FMA units per core, each as wide as the SIMD width the flags give. Intel family 6 by model; AMD by family.
function fmaUnits(facts: CpuFacts): FmaUnits | null {
  const { vendor, family, model } = facts;
  if (vendor === 'GenuineIntel' && family === 6 && model !== null) {
    // Xeon Scalable (Skylake-SP to Emerald Rapids): two 512-bit FMA units on Gold and Platinum parts (one on some
    // Silver and Bronze: the estimate is then twice the truth).
    if ([85, 106, 108, 143, 207].includes(model)) return { units: 2, arch: 'Intel Xeon Scalable' };
    // Haswell to Raptor Lake clients: two 256-bit FMA units per (performance) core.
    if ([60, 63, 69, 70, 61, 71, 79, 86, 78, 94, 142, 158, 165, 166, 151, 154, 183, 186, 191].includes(model)) return { units: 2, arch: 'Intel Core (Haswell or later)' };
    return null;
  }
  if (vendor === 'AuthenticAMD' && family !== null) {
    // Zen 1: two 128-bit FMA pipes, one 256-bit FMA a clock; Zen 2 to Zen 5: two 256-bit (Zen 5: 512-bit) FMA units.
    if (family === 23) return model !== null && model >= 0x30 ? { units: 2, arch: 'AMD Zen 2' } : { units: 1, arch: 'AMD Zen 1' };
    if (family === 25) return { units: 2, arch: 'AMD Zen 3/Zen 4' };
    if (family === 26) return { units: 2, arch: 'AMD Zen 5' };
  }
  return null;
}

// fp32 lanes of the widest FMA the flags allow: AVX-512 16, AVX2 with FMA 8, else SSE's 4. AMD before Zen 5 runs
// AVX-512 as two 256-bit halves: 8 lanes a unit.
function fp32Lanes(facts: CpuFacts): { lanes: number; isa: string } {
  const has = (f: string): boolean => facts.flags.includes(f);
  if (has('avx512f') && !(facts.vendor === 'AuthenticAMD' && facts.family !== null && facts.family < 26)) return { lanes: 16, isa: 'AVX-512' };
  if (has('avx2') && has('fma')) return { lanes: 8, isa: 'AVX2' };
  return { lanes: 4, isa: 'SSE' };
}

// The clock: cpufreq's maximum, else the nominal clock in the model name ("@ 2.40GHz", a base clock).
function clockOf(facts: CpuFacts): { mhz: number; source: string } | null {
  if (facts.maxClockMHz !== null && facts.maxClockMHz > 0) return { mhz: facts.maxClockMHz, source: 'cpufreq maximum' };
  const nominal = /@\s*([\d.]+)\s*GHz/i.exec(facts.modelName);
  if (nominal?.[1]) return { mhz: Math.round(Number(nominal[1]) * 1000), source: 'base clock in the model name' };
  return null;
}

export function estimateCpuPeaks(facts: CpuFacts): CpuPeakEstimate {
  const none = (reason: string, why: Message): CpuPeakEstimate => ({ fp32Gflops: null, fp64Gflops: null, fp32Formula: '', fp64Formula: '', reason, why });
  const fma = fmaUnits(facts);
  if (!fma) {
    const cpu = { vendor: facts.vendor, family: facts.family ?? '?', model: facts.model ?? '?' };
    return none(`no FLOP peak: the FMA units of this CPU (${cpu.vendor} family ${cpu.family} model ${cpu.model}) are not in the table`, msg('reasons.cpuPeakNoFma', cpu));
  }
  const clock = clockOf(facts);
  if (!clock) return none('no FLOP peak: neither cpufreq nor the model name gives the maximum clock', msg('reasons.cpuPeakNoClock'));
  if (facts.physicalCores <= 0) return none('no FLOP peak: the number of cores is not known', msg('reasons.cpuPeakNoCores'));
  const { lanes, isa } = fp32Lanes(facts);
  const formula = (l: number, type: string): [number, string] => {
    const value = (facts.physicalCores * clock.mhz * l * fma.units * 2) / 1000;
    return [value, `estimate: ${facts.physicalCores} cores × ${clock.mhz} MHz (${clock.source}) × ${l} ${type} lanes (${isa}) × ${fma.units} FMA units (${fma.arch}) × 2 FLOP = ${value.toFixed(0)} GFLOP/s`];
  };
  const [fp32, fp32Formula] = formula(lanes, 'fp32');
  const [fp64, fp64Formula] = formula(lanes / 2, 'fp64');
  return { fp32Gflops: fp32, fp64Gflops: fp64, fp32Formula, fp64Formula, reason: null, why: null };
}
