import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { currentRequestId, markBound, withRequestId } from '../platform/logging/log-context.ts';
import { routePattern } from './route-pattern.ts';

// One log line per request, written when the answer has gone: the route it matched, the
// method, the status, how long it took, the request id (bound to `request.log`) and the
// signed-in user. Nothing of the request itself (path, query, headers, body) is written, so
// no password, token, cookie or card number can reach the log by this way; the route's
// pattern says which endpoint it was. Fastify's own two lines per request are off
// (`disableRequestLogging` in app.ts).

const failures = new WeakMap<FastifyRequest, unknown>();

/**
 * The error handler hands over what a failed request's line should say: the error itself for
 * our own faults (5xx, with its stack), a short summary for a client's (bad JSON).
 */
export function noteRequestError(request: FastifyRequest, error: unknown): void {
  failures.set(request, error);
}

function writeLine(request: FastifyRequest, reply: FastifyReply): void {
  const status = reply.statusCode;
  const line: Record<string, unknown> = {
    route: routePattern(request),
    method: request.method,
    status,
    durationMs: Math.round(reply.elapsedTime * 10) / 10,
  };
  const userId = request.auth?.user.id;
  if (userId !== undefined) line.userId = userId;
  const failure = failures.get(request);
  if (failure !== undefined) line.err = failure;
  // 503 is a shutdown under way or a dependency away (readiness): expected now and then, not
  // a fault of ours to page anyone about; what is down says so in its own lines and checks.
  if (status >= 500 && status !== 503) request.log.error(line, 'request');
  else if (status >= 500) request.log.warn(line, 'request');
  // Health checks declare `logLevel: 'warn'`, so their request logger drops this line.
  else request.log.info(line, 'request');
}

export const requestLog = fp(
  async (app) => {
    // The request id follows the work from here (log-context.ts). Entered again once the
    // body is read, where it was lost: a stream's events do not carry the context of the hook
    // that waited (a request without a body is still in it).
    app.addHook('onRequest', (request, _reply, done) => {
      // Fastify's request logger binds the id already; the context must not add it again.
      markBound(request.log);
      withRequestId(request.id, done);
    });
    app.addHook('preHandler', (request, _reply, done) => {
      if (currentRequestId() === request.id) done();
      else withRequestId(request.id, done);
    });
    app.addHook('onResponse', (request, reply, done) => {
      writeLine(request, reply);
      done();
    });
  },
  { name: 'request-log' },
);
