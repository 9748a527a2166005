import type { FastifyInstance } from 'fastify';
import { inBooks } from './books.ts';
import { createToken } from './cards.ts';
import type { SandboxContext } from './sandbox-context.ts';
import { type CardFormInput, readCardForm } from './test-cards.ts';

export const TOKENS_PATH = '/sandbox/v1/tokens';

/**
 * Tokens per client address: enough for a person retyping a card a few times, far too few
 * to test stolen card numbers against us (each answer says whether a number is valid).
 */
const TOKENS_PER_ADDRESS = { limit: 20, windowMs: 60 * 60_000 };

/**
 * The card form's tokenizer, standing in for Stripe.js: the browser posts the card here and
 * hands our API only the token's id, so card numbers never reach our API or our books.
 */
export function tokenRoutes(app: FastifyInstance, context: SandboxContext): void {
  app.post(
    TOKENS_PATH,
    { schema: { hide: true }, config: { access: 'public' } },
    async (request, reply) => {
      await app.rateLimiter.consume([
        { name: 'sandbox-token-ip', key: request.ip, ...TOKENS_PER_ADDRESS },
      ]);
      const body = (typeof request.body === 'object' && request.body) || {};
      const read = readCardForm(body as CardFormInput, context.clock.now());
      // A processor's own error shape (402 with a code and the field), as its card form expects.
      if ('error' in read) return reply.code(402).send({ error: read.error });
      const name = (body as { name?: unknown }).name;
      const token = await inBooks(context, async (books) =>
        createToken(books, read.card, typeof name === 'string' ? name.slice(0, 200) : ''),
      );
      const { brand, last4, expMonth, expYear } = read.card;
      return { id: token.id, card: { brand, last4, exp_month: expMonth, exp_year: expYear } };
    },
  );
}
