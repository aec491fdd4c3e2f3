// Serve mode's class (a teacher and students on one server): which seat this page is, and joining the class. A
// student's pages are at /?as=student, and so is their WebSocket, which then carries the student's cookie rather
// than the teacher's (one browser may hold both). Joining is a POST the server answers with the student's cookie,
// which this page never reads.
import type { ErrorPayload } from '../../main/common/errors.ts';
import { ApiError } from './api-error.ts';

export function classSeatQuery(): string {
  return new URLSearchParams(location.search).get('as') === 'student' ? '?as=student' : '';
}

// The name as the class keeps it, or an ApiError (the field at fault in its details).
export async function joinClass(name: string): Promise<string> {
  let response: Response;
  try {
    response = await fetch('/join', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ name }), credentials: 'same-origin' });
  } catch (err) {
    throw new ApiError({ code: 'DISCONNECTED', message: `The server could not be reached: ${(err as Error).message}` });
  }
  const body = (await response.json().catch(() => null)) as { name?: unknown; error?: ErrorPayload } | null;
  if (response.ok && typeof body?.name === 'string') return body.name;
  throw new ApiError(body?.error ?? { code: 'NATIVE_ERROR', message: `The server answered ${response.status}` });
}
