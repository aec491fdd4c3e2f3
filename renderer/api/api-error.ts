// An error from main as the renderer sees it: the contract's {code, message, details}, as an Error the UI can show
// and match on by code.
import type { ErrorCode, ErrorPayload } from '../../main/common/errors.ts';

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown> | undefined;

  constructor(payload: ErrorPayload) {
    super(payload.message);
    this.name = 'ApiError';
    this.code = payload.code;
    this.details = payload.details;
  }
}

// Any thrown value as a message a person can read.
export function errorText(err: unknown): string {
  if (err instanceof ApiError) return `${err.message} (${err.code})`;
  return err instanceof Error ? err.message : String(err);
}
