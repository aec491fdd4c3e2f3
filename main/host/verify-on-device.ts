// A playground check made on the GPU (native/verify-output.ts) read as the verification a run reports: the same three
// counts as the host's checks (verify-kernel.ts), every element compared, and the first wrong elements listed from
// the window the device sent back. Why on the GPU: a JavaScript loop over SAXPY's 16.7 million elements took 1.2 s of
// its 1.4 s round trip on an H200; the device's reduction takes milliseconds and copies back a few numbers. A pure
// function of the device's answer: tested here without a GPU.
import type { Mismatch, VerificationResult } from '../common/playground.ts';
import type { DeviceCheckResult } from '../../native/verify-output.ts';

const MAX_LISTED = 10;

export interface DeviceCheckWords {
  // What was compared with what, as the run says it ("every element against float64 a·x + y").
  method: string;
  tolerance: string;
  check: VerificationResult['check'];
  relativeTolerance: number;
  // The output's columns where it is a matrix (row and column of each mismatch), else null.
  cols: number | null;
}

export function deviceVerification(r: DeviceCheckResult, words: DeviceCheckWords): VerificationResult {
  const mismatches: Mismatch[] = [];
  const { window } = r;
  for (let j = 0; j < window.got.length && mismatches.length < MAX_LISTED; j++) {
    if (window.bad[j] !== 1) continue;
    const index = window.start + j;
    const got = window.got[j] ?? Number.NaN;
    const cols = words.cols;
    mismatches.push({
      index,
      row: cols ? Math.floor(index / cols) : null,
      col: cols ? index % cols : null,
      got: Number.isNaN(got) ? null : got,
      expected: window.expected[j] ?? Number.NaN,
      unwritten: window.unwritten[j] === 1,
    });
  }
  return {
    ok: r.wrong === 0 && r.unwritten === 0,
    checked: r.total,
    total: r.total,
    method: words.method,
    tolerance: words.tolerance,
    check: words.check,
    relativeTolerance: words.relativeTolerance,
    samples: null,
    mismatchCount: r.wrong,
    neverWritten: r.unwritten,
    mismatches,
    maxRelativeError: r.maxRelativeError,
  };
}
