import fastify from 'fastify';
import { testConfig } from '#server/config.ts';
import { errorHandler } from '#server/http/error-handler.ts';
import { realtimePlugin } from '#server/platform/realtime/realtime-plugin.ts';
import { BENCH_APP_SECRET } from './bench-secret.ts';
import { failStartup, serve } from './serve.ts';

// The built-in realtime server as buildApp registers it (the realtime plugin behind our error
// handler), without the rest of the product: the embedded database frees hundreds of MB at
// unpredictable times after start-up, which would swamp a memory figure of a few MB per
// thousand connections. The publish path is the product's: the `pusher` library, the signed
// HTTP events API, the channel hub and the sockets.
const app = fastify();
// Behind a proxy, as in production: the scenario's clients name their own addresses
// (X-Forwarded-For), so the cap on sockets per address applies to each as it would; the
// runner on loopback plays the proxy.
app.decorate('config', testConfig({ APP_SECRET: BENCH_APP_SECRET, TRUST_PROXY: 'loopback' }));
await app.register(errorHandler);
await app.register(realtimePlugin);
await serve(app).catch(failStartup);
