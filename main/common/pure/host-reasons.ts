// What the compute host says in English about what this machine lacks (no CUDA device, a library the loader could
// not open), as messages, so that each reader reads it in their language: made where main first holds the host's
// words (the native facade, the runner) and, for a record or a version string kept from before, where it is read.
// The cases the addon words are matched; anything else is quoted as it came. The system's own error (the loader's
// "cannot open shared object file") stays as the system said it: `detail`, shown as quoted text.
import { msg } from './message.ts';
import type { Message } from './message.ts';

export function noCudaWhy(reason: string): Message {
  const driver = /no NVIDIA driver is installed \((\S+) was not found\)/.exec(reason);
  if (driver) return msg('reasons.noDriver', { library: driver[1] ?? '' });
  if (/the driver found none/.test(reason)) return msg('reasons.noneFound');
  const runtime = /^no CUDA device: (cuda[A-Za-z]+)\b/.exec(reason);
  if (runtime) return msg('reasons.cudaError', { code: runtime[1] ?? '' });
  if (/^built without CUDA:?\s*nvcc was not found$/.test(reason)) return msg('reasons.noNvcc');
  const built = /^built without CUDA:?\s*/.exec(reason);
  const detail = reason.replace(/^(no CUDA device|built without CUDA):?\s*/, '') || reason;
  return built ? msg('reasons.builtWithoutCuda', { detail }) : msg('reasons.noCuda', { detail });
}

export interface LibraryWhy {
  why: Message;
  // The loader's own words, or null.
  detail: string | null;
}

// native/cuda/dynlib.cu's reasons: "none of A, B could be opened (E)", "… could be opened from the loader's path or
// 2 other folders (E)", and a build without CUDA.
export function libraryWhy(reason: string): LibraryWhy | null {
  if (reason === 'built without CUDA') return { why: msg('reasons.libraryNoCudaBuild'), detail: null };
  const opened = /^none of (.+?) could be opened(?: from the loader's path(?: or (\d+) other folders?)?)? \((.*)\)$/s.exec(reason);
  if (!opened) return null;
  const [, tried = '', others, detail = ''] = opened;
  const why = others === undefined ? msg('reasons.libraryNotOpened', { tried }) : msg('reasons.libraryNotOpenedOthers', { tried, count: Number(others) });
  return { why, detail: detail || null };
}

// A point recorded before reasons were messages keeps the runner's English: the cases the runner words are said again
// as the messages it now records (a GPU series waived for want of CUDA, a run on the CPU only); null for any other.
export function recordedReasonWhy(reason: string): Message | null {
  if (/^(no CUDA device|built without CUDA)\b/.test(reason)) return noCudaWhy(reason);
  if (reason === 'the run was started on the CPU only (device "cpu")') return msg('reasons.cpuOnly');
  if (reason === 'the run was cancelled before this point') return msg('reasons.cancelled');
  return null;
}
