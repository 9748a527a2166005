import { eq, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { COUPON_COOKIE } from '#shared/contracts/admin/coupons.ts';
import { isLang } from '#shared/locales.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { coupons } from '../../db/schema/index.ts';
import { AppError } from '../../http/app-error.ts';
import type { RateLimiter } from '../../platform/rate-limit/rate-limiter.ts';
import { couponRefusal } from '../billing/coupon-check.ts';

/** The same counter as the order page's coupon checks: a link is one more way to guess. */
const COUPON_CHECKS_PER_IP = { limit: 30, windowMs: 15 * 60_000 };
/** Long enough for a campaign's visitor to come back and order a few days later. */
const COUPON_COOKIE_DAYS = 28;

export interface CouponLinkDeps {
  db: Database;
  config: Pick<Config, 'appUrl' | 'defaultLocale'>;
  rateLimiter: RateLimiter;
  now: () => Date;
}

/** The coupon a pre-applied link names, if a customer may use it right now. */
async function preappliedCoupon(deps: CouponLinkDeps, code: string): Promise<string | null> {
  const wanted = code.trim();
  if (wanted === '' || wanted.length > 64) return null;
  const [coupon] = await deps.db
    .select()
    .from(coupons)
    .where(eq(sql`lower(${coupons.code})`, wanted.toLowerCase()))
    .limit(1);
  if (!coupon?.preapplied || couponRefusal(coupon, deps.now())) return null;
  return coupon.code;
}

/**
 * A pre-applied coupon's link: a usable pre-applied coupon goes into the coupon cookie the
 * order page reads (so it shows the discount applied); anything else opens the same page
 * without it, telling a guesser nothing about which codes exist.
 */
export async function followCouponLink(
  deps: CouponLinkDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  input: { code: string; lang: string | undefined },
): Promise<FastifyReply> {
  const lang = isLang(input.lang) ? input.lang : deps.config.defaultLocale;
  let code: string | null = null;
  try {
    await deps.rateLimiter.consume([
      { name: 'coupon-ip', key: request.ip, ...COUPON_CHECKS_PER_IP },
    ]);
    code = await preappliedCoupon(deps, input.code);
  } catch (error) {
    // Over the limit: the page still opens, only the coupon is not looked up.
    if (!(error instanceof AppError && error.code === 'too_many_requests')) throw error;
  }
  if (code) {
    reply.setCookie(COUPON_COOKIE, code, {
      path: '/',
      sameSite: 'lax',
      // The order page reads it (app/features/billing/order/order-choice.ts).
      httpOnly: false,
      secure: deps.config.appUrl.startsWith('https:'),
      maxAge: COUPON_COOKIE_DAYS * 24 * 60 * 60,
    });
  }
  // Whether a code was usable depends on the moment and on the rate limit: never cached.
  reply.header('cache-control', 'no-store');
  return reply.redirect(`/${lang}/order-v2`, 302);
}
