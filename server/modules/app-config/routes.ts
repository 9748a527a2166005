import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { appConfig } from '#shared/contracts/app-config.ts';
import { publicAppConfig } from './public-config.ts';

export const appConfigRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/app-config',
    {
      schema: {
        tags: ['public'],
        summary: 'Locales and feature flags',
        response: { 200: appConfig },
      },
    },
    async () => publicAppConfig(app),
  );
};
