import type { SignedDataVerifier } from '@apple/app-store-server-library';
import type { FastifyBaseLogger } from 'fastify';
import type { AppStoreApi } from './appstore-api.ts';

/** What the App Store adapter's parts share: Apple's API client and verifier for our app. */
export interface AppStoreContext {
  api: AppStoreApi;
  verifier: SignedDataVerifier;
  log: FastifyBaseLogger;
  /** When a read happened: the snapshots' updatedAt, so a later read always wins. */
  now: () => Date;
}
