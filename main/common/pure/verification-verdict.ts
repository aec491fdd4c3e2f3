// What a kernel run's verification says, in the order the app, the CLI and the PDF say it: the sentences (each a key
// that every reader has under its own catalog, `…verdict.<key>`) and their figures. The counts stay apart: wrong
// elements are counted among those checked, so a sentence never puts more wrong than checked; the elements never
// written are counted over the whole output and said on their own; a record of an older version that added the two
// together is said as such. No figure here is ever a stand-in: an error measure that does not exist is a sentence.
import type { VerificationResult } from '../playground.ts';

// The GEMM checks, old and new: a sample of C against float64 dot products, the rest for having been written; or
// every element against a float64 reference made on the GPU. Their tolerance is relative to the reference's RMS.
export function isGemmCheck(check: VerificationResult['check']): boolean {
  return check === 'sampled-gemm' || check === 'gemm-crossings' || check === 'gemm-every-element';
}

export type VerdictKey =
  // Every element checked matched, and none was left unwritten.
  | 'passed'
  // {count} of the {checked} elements checked are wrong.
  | 'wrong'
  // None of the {checked} checked is wrong, but {count} of the {total} were never written.
  | 'incomplete'
  // After 'wrong': {count} of the {total} elements of the output were never written.
  | 'unwritten'
  // After 'wrong', in a record of an older version that did not count the elements never written.
  | 'unwrittenUncounted'
  // A record of an older version that counted {count} elements wrong or never written together, against {checked}
  // compared with the reference.
  | 'older';

export interface VerdictSentence {
  key: VerdictKey;
  // The count the sentence's plural follows.
  count: number;
  named: { count: number; checked: number; total: number };
}

export function verdictSentences(v: VerificationResult): VerdictSentence[] {
  const sentence = (key: VerdictKey, count: number): VerdictSentence => ({ key, count, named: { count, checked: v.checked, total: v.total } });
  if (v.mismatchCount === null) return [sentence('older', v.olderWrongOrUnwritten ?? 0)];
  const wrong = v.mismatchCount;
  const unwritten = v.neverWritten;
  if (wrong > 0) {
    if (unwritten === null) return [sentence('wrong', wrong), sentence('unwrittenUncounted', 0)];
    return unwritten > 0 ? [sentence('wrong', wrong), sentence('unwritten', unwritten)] : [sentence('wrong', wrong)];
  }
  return unwritten !== null && unwritten > 0 ? [sentence('incomplete', unwritten)] : [sentence('passed', 0)];
}

// The largest relative error: a number, none (an element checked is NaN or infinite, or differs from an expected 0,
// so no ratio exists), or lost (an older version stored a placeholder for it, and its count cannot tell why).
export type MaxErrorText = { key: 'maxError'; error: number } | { key: 'noMaxError' } | { key: 'maxErrorLost' };

export function maxErrorOf(v: VerificationResult): MaxErrorText {
  if (v.maxRelativeError !== null) return { key: 'maxError', error: v.maxRelativeError };
  return v.mismatchCount === null ? { key: 'maxErrorLost' } : { key: 'noMaxError' };
}
