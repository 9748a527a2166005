import { randomUUID } from 'node:crypto';
import cookie from '@fastify/cookie';
import Fastify, { type FastifyServerOptions, LogController } from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { installZodMessages } from '#shared/validation/zod-messages.ts';
import type { Config } from './config.ts';
import type { DatabaseHandle } from './db/client.ts';
import { databasePlugin } from './db/plugin.ts';
import { registerApi } from './http/api.ts';
import { AppError } from './http/app-error.ts';
import { clientErrorHandler, errorHandler, replyWithError } from './http/error-handler.ts';
import { openApi } from './http/openapi.ts';
import { requestLog } from './http/request-log.ts';
import { routeAccess } from './http/route-access.ts';
import { securityHeaders, securityHeaderValues } from './http/security-headers.ts';
import { serializerCompiler } from './http/serializer-compiler.ts';
import type { App } from './http/types.ts';
import { refusingUnstorableText } from './http/validator-compiler.ts';
import { webPlugin } from './http/web.ts';
import { billingPlugin } from './modules/billing/billing-plugin.ts';
import { contentPlugin } from './modules/content/content-plugin.ts';
import { dataExportPlugin } from './modules/data-export/data-export-plugin.ts';
import { familySharingPlugin } from './modules/family-sharing/family-plugin.ts';
import { healthGauges } from './modules/health/health-gauges.ts';
import { healthRoutes } from './modules/health/routes.ts';
import { authPlugin } from './modules/identity/auth-plugin.ts';
import { jobsPlugin } from './modules/jobs/jobs-plugin.ts';
import type { ScheduledJob } from './modules/jobs/scheduled-jobs.ts';
import { notificationsPlugin } from './modules/notifications/notifications-plugin.ts';
import { oidcPlugin } from './modules/oidc/oidc-plugin.ts';
import { referralPlugin } from './modules/referral/referral-plugin.ts';
import { sitePlugin } from './modules/site/site-plugin.ts';
import { type VpnPluginOptions, vpnPlugin } from './modules/vpn/vpn-plugin.ts';
import { cryptoPlugin } from './platform/crypto/crypto-plugin.ts';
import { requestIdMixin } from './platform/logging/log-context.ts';
import { logDestination } from './platform/logging/log-destination.ts';
import { type MailerPluginOptions, mailerPlugin } from './platform/mail/mailer-plugin.ts';
import { metricsPlugin } from './platform/metrics/metrics-plugin.ts';
import { paymentsPlugin } from './platform/payments/payments-plugin.ts';
import { type QueuePluginOptions, queuePlugin } from './platform/queue/queue-plugin.ts';
import { rateLimitPlugin } from './platform/rate-limit/plugin.ts';
import { type RealtimePluginOptions, realtimePlugin } from './platform/realtime/realtime-plugin.ts';
import { storagePlugin } from './platform/storage/storage-plugin.ts';

/** A destination for pino's lines, one JSON text each. */
export interface LogStream {
  write(line: string): void;
}

export interface AppDependencies {
  /** An open, migrated database; without it the configured one is opened. */
  database?: DatabaseHandle;
  /** The scheduled jobs to run; all of the product's by default (tests run none). */
  jobs?: readonly ScheduledJob[];
  /** Durable job queue timings, for tests; pg-boss's defaults otherwise. */
  queue?: QueuePluginOptions;
  /** Mail retry timings, for tests; MAIL_RETRY otherwise. */
  mail?: MailerPluginOptions;
  /** Built-in realtime server timings, for tests; the protocol's defaults otherwise. */
  realtime?: RealtimePluginOptions;
  /** The VPN fleet's live event timings, for tests. */
  vpn?: VpnPluginOptions;
  /** Where log lines go instead of stdout (tests read them). */
  logStream?: LogStream;
  /** A file log lines go to instead of stdout, by the same writer (the bench: /dev/null). */
  logFile?: string;
}

const REQUEST_ID = /^[\w.:-]{1,128}$/;

function loggerOptions(
  config: Config,
  { logStream: stream, logFile: file }: AppDependencies,
): FastifyServerOptions['logger'] {
  return {
    level: config.logLevel,
    redact: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'],
    // Lines written while a request (or a job it sent) runs name its id.
    ...requestIdMixin,
    ...(stream
      ? { stream }
      : config.logPretty && !file
        ? { transport: { target: 'pino-pretty' } }
        : { stream: logDestination(file) }),
  };
}

/** Builds the whole application without listening: used by main.ts and by every test. */
export async function buildApp(config: Config, deps: AppDependencies = {}): Promise<App> {
  installZodMessages();
  const app = Fastify({
    logger: loggerOptions(config, deps),
    // One line per request instead of Fastify's two: server/http/request-log.ts.
    logController: new LogController({ disableRequestLogging: true }),
    trustProxy: config.trustProxy,
    // A sane request id from the proxy is kept (so logs line up across hops), else a new
    // one; decided before the request's logger is made, so logs and answer carry the same.
    requestIdHeader: false,
    genReqId: (raw) => {
      const given = raw.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    bodyLimit: 1_048_576,
    // The database plugin may create PGlite's database (initdb, 9–15 s on these machines,
    // more on a busy one) and run the migrations: far past Fastify's 10 s default.
    pluginTimeout: 120_000,
    // Answered below in our envelope instead of Fastify's own body.
    return503OnClosing: false,
    // A URL Fastify cannot even route (bad percent-encoding 400, a parameter over its length
    // 414) still gets the envelope and an id: no hook of ours runs for it.
    frameworkErrors: (error, request, reply) => {
      reply.headers(securityHeaderValues(config.appUrl.startsWith('https://')));
      reply.header('x-request-id', request.id);
      return replyWithError(error, request, reply);
    },
    clientErrorHandler,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(refusingUnstorableText(validatorCompiler));
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('config', config);
  app.decorate('draining', false);

  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  // Callback style, as every hook each request meets: an async hook costs it a promise.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    // During a graceful shutdown new requests go elsewhere (the load balancer retries), but
    // a route may keep serving (the realtime events API, which requests finishing publish to).
    if (closing && !request.routeOptions.config?.servesWhileClosing) {
      reply.header('connection', 'close');
      return done(new AppError('unavailable'));
    }
    done();
  });

  await app.register(routeAccess);
  await app.register(requestLog);
  await app.register(metricsPlugin);
  await app.register(errorHandler);
  await app.register(securityHeaders);
  await app.register(cookie);
  await app.register(databasePlugin, { database: deps.database });
  // Next to the database: on close it stops taking jobs first and closes just before it.
  await app.register(queuePlugin, deps.queue ?? {});
  await app.register(cryptoPlugin);
  await app.register(storagePlugin);
  await app.register(mailerPlugin, deps.mail ?? {});
  await app.register(rateLimitPlugin);
  await app.register(realtimePlugin, deps.realtime ?? {});
  await app.register(authPlugin);
  await app.register(oidcPlugin);
  await app.register(jobsPlugin, { jobs: deps.jobs });
  await app.register(paymentsPlugin);
  await app.register(billingPlugin);
  await app.register(notificationsPlugin);
  await app.register(dataExportPlugin);
  await app.register(familySharingPlugin);
  await app.register(referralPlugin);
  await app.register(vpnPlugin, deps.vpn ?? {});
  await app.register(contentPlugin);
  await app.register(sitePlugin);
  await app.register(openApi);
  await app.register(healthRoutes);
  await app.register(healthGauges);
  await registerApi(app);
  await app.register(webPlugin);
  return app;
}
