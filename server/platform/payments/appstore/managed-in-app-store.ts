import { GatewayRequestError } from '../gateway.ts';

// What the App Store does not let a seller do: the customer buys, changes, cancels and pays
// in the App Store (on the device, or in their Apple ID settings), and Apple decides refunds.

const WHERE = {
  buy: 'App Store subscriptions are bought in the app',
  change: 'an App Store subscription changes plan in the App Store (Apple ID → Subscriptions)',
  cancel:
    'an App Store subscription is canceled by its owner in their Apple ID settings (Subscriptions)',
  pause: 'the App Store has no pause for subscriptions',
  pay: 'the App Store collects its own renewals; the customer updates the payment method there',
  refund: 'Apple decides App Store refunds: the customer asks at reportaproblem.apple.com',
} as const;

/** Refuses an action that is the customer's to take at Apple, saying where. */
export function managedInAppStore(action: keyof typeof WHERE): never {
  throw new GatewayRequestError('invalid_state', WHERE[action]);
}
