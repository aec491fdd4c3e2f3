// Why Run cannot be pressed now, if it cannot: the first of what stops it, in the order a student would deal with
// them. A run already out comes first (nothing else matters until it ends); then kernels that cannot run here at all
// (no NVRTC, no CUDA device, or the playground's state still being read); then the draft not read yet (Run would send
// the wrong text); then a source the playground's check refuses (main would refuse the run); then a launch header
// that cannot be read (it sets the launch); then launch values that do not check. Each is said in words beside the button, as a catalog key with its values.
export type RunBlocker =
  | { key: 'running' }
  | { key: 'unavailable'; reason: string }
  | { key: 'draft' }
  | { key: 'source'; line: number; column: number | null }
  | { key: 'header' }
  | { key: 'launch'; count: number };

export interface RunState {
  running: boolean;
  // Why kernels cannot run on this computer, or null where they can.
  unavailable: string | null;
  draftLoading: boolean;
  // Where the playground's source check refuses the text in the editor, or null where it passes.
  sourceRefusal: { line: number; column: number | null } | null;
  // Whether the source's launch header cannot be read (its problem is said above the button).
  headerProblem?: boolean;
  launchProblems: number;
}

export function runBlocker(state: RunState): RunBlocker | null {
  if (state.running) return { key: 'running' };
  if (state.unavailable !== null) return { key: 'unavailable', reason: state.unavailable };
  if (state.draftLoading) return { key: 'draft' };
  if (state.sourceRefusal) return { key: 'source', line: state.sourceRefusal.line, column: state.sourceRefusal.column };
  if (state.headerProblem) return { key: 'header' };
  if (state.launchProblems > 0) return { key: 'launch', count: state.launchProblems };
  return null;
}
