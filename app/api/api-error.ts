import { ERROR_CODES, ERROR_MESSAGES, type ErrorCode } from '#shared/error-codes.ts';

/** The server's codes, plus the two failures that never reach it. */
export type ApiErrorCode = ErrorCode | 'network' | 'timeout';

// Failures without an envelope still need words; these keys live in ui.json.
const LOCAL_MESSAGES = {
  network: 'ui.request_error.network',
  timeout: 'ui.request_error.timeout',
} as const;

export interface ApiErrorDetails {
  validation?: Record<string, string[]>;
  info?: string[];
}

/** A failed request: the §5 envelope of a non-2xx answer, or a network failure (status 0). */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly code: ApiErrorCode;
  readonly validation: Record<string, string[]>;
  readonly info: string[];

  constructor(status: number, code: ApiErrorCode, details: ApiErrorDetails = {}) {
    super(`${code} (${status})`);
    this.status = status;
    this.code = code;
    this.validation = details.validation ?? {};
    this.info = details.info ?? [];
  }

  /** The i18n key to show for the whole error: the server's first info message, else the code's. */
  get messageKey(): string {
    return this.info[0] ?? messageKeyOf(this.code);
  }
}

export function messageKeyOf(code: ApiErrorCode): string {
  return code === 'network' || code === 'timeout' ? LOCAL_MESSAGES[code] : ERROR_MESSAGES[code];
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

const isStringList = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === 'string');

function isErrorCode(value: unknown): value is ErrorCode {
  return (ERROR_CODES as readonly unknown[]).includes(value);
}

/**
 * Reads an error answer without zod (the client stays small): a body that is not our
 * envelope is treated as the server's fault, or as unavailability when a proxy in front of
 * it answered 502–504.
 */
export function apiErrorFromBody(status: number, body: string): ApiError {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    parsed = undefined;
  }
  const envelope = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as Record<
    string,
    unknown
  >;
  if (!isErrorCode(envelope.code)) {
    return new ApiError(status, status >= 502 && status <= 504 ? 'unavailable' : 'internal');
  }
  const validation: Record<string, string[]> = {};
  const rawValidation = envelope.errors_validation;
  if (typeof rawValidation === 'object' && rawValidation !== null) {
    for (const [field, messages] of Object.entries(rawValidation)) {
      if (isStringList(messages) && messages.length > 0) validation[field] = messages;
    }
  }
  const info = isStringList(envelope.errors_info) ? envelope.errors_info : [];
  return new ApiError(status, envelope.code, { validation, info });
}

/**
 * True when the request was cancelled on purpose (an aborted signal, or a query TanStack
 * Query cancelled): such failures are not shown to anyone (§8).
 */
export function isCancelled(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  if ((error as { name?: unknown }).name === 'AbortError') return true;
  // TanStack Query's CancelledError, told by its shape: importing the class would bring the
  // whole query library into the first bundle (client.test.ts checks a real one).
  return error instanceof Error && error.message === 'CancelledError' && 'revert' in error;
}

/** The i18n key to show for a failed call outside a form; an unexpected error is logged. */
export function failureMessage(error: unknown): string {
  if (isApiError(error)) return error.messageKey;
  console.error(error);
  return messageKeyOf('internal');
}
