// An error from main as the renderer sees it: the contract's {code, message, details}, as an Error the UI can show
// and match on by code.
import type { ErrorCode, ErrorPayload } from '../../main/common/errors.ts';
import { errorText as errorSentence } from '../../main/common/pure/i18n/error-text.ts';
import type { Translate } from '../../main/common/pure/i18n/translate.ts';
import { i18n } from '../i18n/index.ts';

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
// An error from main reads in the app's language: by its code, the engine's own message in English.
export function errorText(err: unknown): string {
  if (err instanceof ApiError) return `${errorSentence(err, i18n.global.t as Translate)} (${err.code})`;
  return err instanceof Error ? err.message : String(err);
}
