import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ERROR_MESSAGES, type ErrorCode, type ErrorEnvelope } from '#shared/contracts/errors.ts';
import { AppError, STATUS_BY_CODE } from './app-error.ts';

const CODE_BY_STATUS = new Map<number, ErrorCode>(
  Object.entries(STATUS_BY_CODE).map(([code, status]) => [status, code as ErrorCode]),
);

export function sendError(reply: FastifyReply, error: AppError): FastifyReply {
  const body: ErrorEnvelope = { code: error.code };
  if (error.validation) body.errors_validation = error.validation;
  else body.errors_info = error.info;
  if (error.headers) reply.headers(error.headers);
  return reply.code(error.statusCode).type('application/json; charset=utf-8').send(body);
}

/** Field name of a validation issue: its path in dots, or `_` for the whole input. */
function fieldOf(instancePath: string): string {
  const path = instancePath.replace(/^\//, '').replaceAll('/', '.');
  return path === '' ? '_' : path;
}

function toAppError(error: FastifyError): AppError {
  if (error instanceof AppError) return error;
  if (hasZodFastifySchemaValidationErrors(error)) {
    const validation: Record<string, string[]> = {};
    for (const issue of error.validation) {
      const field = fieldOf(issue.instancePath);
      validation[field] = [
        ...(validation[field] ?? []),
        issue.message ?? ERROR_MESSAGES.bad_request,
      ];
    }
    return new AppError('validation_failed', { validation });
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    // Fastify's own client errors (bad JSON, wrong content type, body too large …).
    return new AppError(CODE_BY_STATUS.get(status) ?? 'bad_request');
  }
  return new AppError('internal');
}

// One error path for the whole server: every failure leaves as the §5 envelope, never with
// a stack trace; only our own faults are 5xx, and only those are logged as errors.
export const errorHandler = fp(
  async (app: FastifyInstance) => {
    app.setErrorHandler((error: FastifyError, request, reply) => {
      const appError = toAppError(error);
      if (appError.code === 'unavailable') {
        // Shutting down, or a dependency is away: expected now and then, not a bug.
        request.log.warn({ err: { message: error.message } }, 'service unavailable');
      } else if (appError.statusCode >= 500) {
        request.log.error({ err: error }, 'request failed');
      } else if (!(error instanceof AppError)) {
        request.log.info({ err: { message: error.message, code: error.code } }, 'bad request');
      }
      return sendError(reply, appError);
    });
  },
  { name: 'error-handler' },
);

export function notFoundError(): AppError {
  return new AppError('not_found', { info: ERROR_MESSAGES.not_found });
}
