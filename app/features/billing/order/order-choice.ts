// What the customer chose on an order page, kept where it survives the trips an order takes:
// in the URL (`?plan=<product_id>&addon=1&coupon=…`, `&service=2` off the first service; through sign-up and back, and for a
// link someone shares), and for the hop to a provider's page (3-D Secure, PayPal) in this
// tab's storage, since the provider sends the customer back to a URL of the server's making.

export interface OrderChoice {
  plan?: number;
  /** The payment service, when not the first offered (a plan id belongs to one service). */
  service?: number;
  addon?: boolean;
  coupon?: string;
}

const STORAGE_KEY = 'order-choice';
/** The coupon cookie of a promotion link (§4 reaction 1 clears it at sign-out). */
const COUPON_COOKIE = 'coupon';
const COUPON_MAX = 64;

function cleanCoupon(value: string | null | undefined): string | undefined {
  const code = value?.trim().slice(0, COUPON_MAX);
  return code ? code : undefined;
}

export function readChoice(search: URLSearchParams): OrderChoice {
  const plan = Number(search.get('plan'));
  const service = Number(search.get('service'));
  return {
    plan: Number.isInteger(plan) && plan > 0 ? plan : undefined,
    service: Number.isInteger(service) && service > 0 ? service : undefined,
    addon: search.get('addon') === '1' ? true : undefined,
    coupon: cleanCoupon(search.get('coupon')),
  };
}

/** The choice as query parameters, added to (or replacing those in) `base`. */
export function writeChoice(choice: OrderChoice, base = new URLSearchParams()): URLSearchParams {
  const search = new URLSearchParams(base);
  for (const key of ['plan', 'service', 'addon', 'coupon']) search.delete(key);
  if (choice.plan !== undefined) search.set('plan', String(choice.plan));
  if (choice.service !== undefined) search.set('service', String(choice.service));
  if (choice.addon) search.set('addon', '1');
  if (choice.coupon) search.set('coupon', choice.coupon);
  return search;
}

/** A pre-applied coupon from a promotion link, when the cookie is readable by the page. */
export function couponFromCookie(): string | undefined {
  for (const part of document.cookie.split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name !== COUPON_COOKIE) continue;
    try {
      return cleanCoupon(decodeURIComponent(value.join('=')));
    } catch {
      return undefined;
    }
  }
  return undefined;
}

export function rememberChoice(choice: OrderChoice): void {
  try {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify(choice));
  } catch {
    // Private mode without storage: the customer chooses again after the provider's page.
  }
}

/** The choice kept before a provider's page, once. */
export function recallChoice(): OrderChoice {
  try {
    const stored = sessionStorage.getItem(STORAGE_KEY);
    sessionStorage.removeItem(STORAGE_KEY);
    if (!stored) return {};
    const value = JSON.parse(stored) as Record<string, unknown>;
    return readChoice(
      writeChoice({
        plan: typeof value.plan === 'number' ? value.plan : undefined,
        service: typeof value.service === 'number' ? value.service : undefined,
        addon: value.addon === true,
        coupon: typeof value.coupon === 'string' ? value.coupon : undefined,
      }),
    );
  } catch {
    return {};
  }
}
