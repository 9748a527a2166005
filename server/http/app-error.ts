import { ERROR_MESSAGES, type ErrorCode } from '#shared/contracts/errors.ts';

export const STATUS_BY_CODE: Record<ErrorCode, number> = {
  validation_failed: 422,
  bad_request: 400,
  idempotency_error: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  too_many_requests: 429,
  internal: 500,
  unavailable: 503,
};

/**
 * The one error services throw. The error handler turns it into the envelope of
 * shared/contracts/errors.ts; `info` and `validation` hold i18n message keys.
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly info: string[];
  readonly validation: Record<string, string[]> | undefined;
  /** Response headers that belong to the error, such as Retry-After on a 429. */
  readonly headers: Readonly<Record<string, string>> | undefined;

  constructor(
    code: ErrorCode,
    options: {
      info?: string | string[];
      validation?: Record<string, string[]>;
      headers?: Record<string, string>;
    } = {},
  ) {
    const info = options.info === undefined ? [ERROR_MESSAGES[code]] : [options.info].flat();
    super(info[0] ?? code);
    this.name = 'AppError';
    this.code = code;
    this.info = info;
    this.validation = options.validation;
    this.headers = options.headers;
  }

  get statusCode(): number {
    return STATUS_BY_CODE[this.code];
  }

  /** A validation failure on one field, the shape forms show under that field (§5). */
  static field(field: string, message: string): AppError {
    return new AppError('validation_failed', { validation: { [field]: [message] } });
  }
}
