import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { publicRoutes } from './route-access.ts';

// The OpenAPI document is generated from the same zod schemas that validate requests:
// GET /api/docs (browsable) and GET /api/docs/json.
export const openApi = fp(
  async (app: FastifyInstance) => {
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'VPN product API',
          version: '1',
          description:
            'Errors use one envelope: `errors_validation` (field → messages) for invalid input, `errors_info` (messages) otherwise. Messages are i18n keys.',
        },
        servers: [{ url: app.config.appUrl }],
      },
      transform: jsonSchemaTransform,
      transformObject: jsonSchemaTransformObject,
    });
    const https = app.config.appUrl.startsWith('https://');
    // The document and its viewer are open to anyone, as the site's own pages are.
    await app.register(async (docs) => {
      publicRoutes(docs);
      await docs.register(swaggerUi, {
        routePrefix: '/api/docs',
        staticCSP: true,
        // Over plain HTTP (a LAN address, a staging box) the upgrade would send the page's
        // own scripts to an https:// that does not answer.
        transformStaticCSP: (header) =>
          https ? header : header.replace(/;?\s*upgrade-insecure-requests/g, ''),
      });
    });
  },
  { name: 'openapi' },
);
