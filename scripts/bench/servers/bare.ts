import fastify from 'fastify';
import { failStartup, serve } from './serve.ts';

// The baseline: what Fastify itself costs on this machine, so the product's figures can be
// read as a ratio that survives a change of hardware.
const app = fastify();
app.get('/', async () => ({ status: 'ok' }));
await serve(app).catch(failStartup);
