import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ERROR_MESSAGES, type ErrorCode, type ErrorEnvelope } from '#shared/contracts/errors.ts';
import { isDatabaseAway } from '../db/errors.ts';
import { AppError, STATUS_BY_CODE } from './app-error.ts';
import { noteRequestError } from './request-log.ts';

// A status's general code is the first listed for it: `bad_request` for 400, not the
// narrower `idempotency_error` that shares it.
const CODE_BY_STATUS = new Map<number, ErrorCode>();
for (const [code, status] of Object.entries(STATUS_BY_CODE)) {
  if (!CODE_BY_STATUS.has(status)) CODE_BY_STATUS.set(status, code as ErrorCode);
}

function envelopeOf(error: AppError): ErrorEnvelope {
  const body: ErrorEnvelope = { code: error.code };
  if (error.validation) body.errors_validation = error.validation;
  else body.errors_info = error.info;
  return body;
}

/** Answers the error in the envelope; `status` keeps a client error the code map lacks. */
export function sendError(
  reply: FastifyReply,
  error: AppError,
  status = error.statusCode,
): FastifyReply {
  if (error.headers) reply.headers(error.headers);
  return reply.code(status).type('application/json; charset=utf-8').send(envelopeOf(error));
}

/** Field name of a validation issue: its path in dots, or `_` for the whole input. */
function fieldOf(instancePath: string): string {
  const path = instancePath.replace(/^\//, '').replaceAll('/', '.');
  return path === '' ? '_' : path;
}

interface Answer {
  error: AppError;
  status: number;
}

function answerFor(error: FastifyError): Answer {
  if (error instanceof AppError) return { error, status: error.statusCode };
  if (hasZodFastifySchemaValidationErrors(error)) {
    // No prototype: a field may be named `__proto__` or `toString` (an unknown key the NUL
    // rule reports), and must not meet Object.prototype's members here.
    const validation: Record<string, string[]> = Object.create(null);
    for (const issue of error.validation) {
      const field = fieldOf(issue.instancePath);
      validation[field] = [
        ...(validation[field] ?? []),
        issue.message ?? ERROR_MESSAGES.bad_request,
      ];
    }
    const failed = new AppError('validation_failed', { validation });
    return { error: failed, status: failed.statusCode };
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    // Client errors of Fastify and its plugins (bad JSON, body too large, not multipart 406,
    // a range past the end 416 …) keep their status, which tells a client more than a 400;
    // the code is ours, `bad_request` where we have none of that status.
    return { error: new AppError(CODE_BY_STATUS.get(status) ?? 'bad_request'), status };
  }
  // A database restarting or failing over: the client may try again in a moment.
  if (isDatabaseAway(error)) return { error: new AppError('unavailable'), status: 503 };
  return { error: new AppError('internal'), status: 500 };
}

/** Answers any failure of a request in the envelope; the request's log line tells its kind. */
export function replyWithError(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  const answer = answerFor(error);
  if (answer.error.code === 'unavailable') {
    // Shutting down, or a dependency is away: expected now and then, not a bug.
    noteRequestError(request, { message: error.message });
  } else if (answer.status >= 500) {
    noteRequestError(request, error);
  } else if (!(error instanceof AppError)) {
    noteRequestError(request, { message: error.message, code: error.code });
  }
  return sendError(reply, answer.error, answer.status);
}

/**
 * What Node's HTTP parser rejects before there is a request (headers over the size limit,
 * a request too slow to arrive, bytes that are not HTTP): the envelope with the status
 * Fastify's own handler would give, and an id like every other answer. The connection is
 * in an unknown state, so it is closed.
 */
export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const status =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? 408
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? 431
        : 400;
  const body = JSON.stringify(envelopeOf(new AppError('bad_request')));
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${randomUUID()}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    );
  }
  socket.destroy(error);
}

// One error path for the whole server: every failure leaves as the §5 envelope, never with
// a stack trace; only our own faults are 5xx, and only those are logged as errors.
export const errorHandler = fp(
  async (app: FastifyInstance) => {
    app.setErrorHandler(replyWithError);
  },
  { name: 'error-handler' },
);

export function notFoundError(): AppError {
  return new AppError('not_found', { info: ERROR_MESSAGES.not_found });
}
