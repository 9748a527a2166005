import {
  generateRegistrationOptions,
  type RegistrationResponseJSON,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { and, count, desc, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import {
  PASSKEY_MESSAGES as M,
  MAX_PASSKEYS,
  type Passkey,
  type PasskeyRegisterRequest,
  type PasskeysResponse,
} from '#shared/contracts/passkeys.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { type PasskeyRow, passkeys, type UserRow } from '../../db/schema/index.ts';
import { AppError } from '../../http/app-error.ts';
import type { RateLimiter } from '../../platform/rate-limit/rate-limiter.ts';
import { recordAudit, recordOwnAction } from '../audit/audit-log.ts';
import { checkPassword } from '../identity/password-check.ts';
import { CEREMONY_TTL_MS, issueChallenge, takeChallenge } from './ceremony-challenges.ts';
import { presentPasskey } from './passkey-presenter.ts';
import {
  RP_NAME,
  refusalDetail,
  relyingParty,
  storedCounter,
  userHandle,
} from './relying-party.ts';

/** What the own account's passkeys need: the password check's limit, the relying party. */
export interface PasskeysDeps {
  db: Database;
  config: Pick<Config, 'webauthn'>;
  rateLimiter: RateLimiter;
}

/**
 * The signed-in person's passkeys: added after the password (a stolen session alone cannot
 * plant a key that outlives it), renamed, removed after the password. Each change commits
 * with its audit row; a refused registration is audited on its own.
 */
export class PasskeysService {
  constructor(private readonly deps: PasskeysDeps) {}

  private get db() {
    return this.deps.db;
  }

  async list(user: UserRow): Promise<PasskeysResponse> {
    const rows = await this.db
      .select()
      .from(passkeys)
      .where(eq(passkeys.userId, user.id))
      .orderBy(desc(passkeys.createdAt), desc(passkeys.id));
    return { items: rows.map(presentPasskey), limit: MAX_PASSKEYS };
  }

  /**
   * The options of a new passkey: discoverable (so the sign-in page needs no e-mail first)
   * and user-verifying (so it stands for two factors), not one of the account's own again.
   */
  async registrationOptions(request: FastifyRequest, user: UserRow, password: string) {
    const rp = relyingParty(this.deps.config);
    await checkPassword(this.deps, request, user, password);
    const existing = await this.db
      .select({ id: passkeys.credentialId, transports: passkeys.transports })
      .from(passkeys)
      .where(eq(passkeys.userId, user.id));
    if (existing.length >= MAX_PASSKEYS) throw new AppError('conflict', { info: M.tooMany });
    const options = await generateRegistrationOptions({
      rpName: RP_NAME,
      rpID: rp.rpId,
      userName: user.email,
      userDisplayName: user.name ?? user.username,
      userID: userHandle(user.id),
      timeout: CEREMONY_TTL_MS,
      attestationType: 'none',
      excludeCredentials: existing,
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    });
    const challengeId = await issueChallenge(this.db, 'register', user.id, options.challenge);
    return { options, challengeId };
  }

  /** Checks what the authenticator made against the challenge, and keeps its public key. */
  async register(
    request: FastifyRequest,
    user: UserRow,
    challengeId: string | undefined,
    input: PasskeyRegisterRequest,
  ): Promise<Passkey> {
    const rp = relyingParty(this.deps.config);
    const challenge = await takeChallenge(this.db, 'register', challengeId);
    if (!challenge || challenge.userId !== user.id) {
      return this.refuse(
        request,
        user,
        'challenge',
        new AppError('bad_request', { info: M.expired }),
      );
    }
    const invalid = new AppError('bad_request', { info: M.invalid });
    let verified: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
    try {
      verified = await verifyRegistrationResponse({
        // The library checks every field it reads; ours only bounded their sizes.
        response: input.credential as RegistrationResponseJSON,
        expectedChallenge: challenge.challenge,
        expectedOrigin: rp.origins,
        expectedRPID: rp.rpId,
        requireUserVerification: true,
      });
    } catch (error) {
      return this.refuse(request, user, 'invalid', invalid, refusalDetail(error));
    }
    if (!verified.verified) return this.refuse(request, user, 'invalid', invalid);
    const { credential, aaguid, credentialBackedUp } = verified.registrationInfo;
    try {
      const row = await this.db.transaction(async (tx) => {
        const [held] = await tx
          .select({ value: count() })
          .from(passkeys)
          .where(eq(passkeys.userId, user.id));
        if ((held?.value ?? 0) >= MAX_PASSKEYS) throw new AppError('conflict', { info: M.tooMany });
        const [added] = await tx
          .insert(passkeys)
          .values({
            userId: user.id,
            credentialId: credential.id,
            publicKey: Buffer.from(credential.publicKey).toString('base64url'),
            counter: storedCounter(credential.counter),
            transports: credential.transports ?? [],
            aaguid,
            backedUp: credentialBackedUp,
            name: input.name,
          })
          .returning();
        if (!added) throw new Error('passkey insert returned nothing');
        await recordOwnAction(tx, request, 'passkeys.added', user, {
          passkey_id: added.id,
          name: added.name,
        });
        return added;
      });
      return presentPasskey(row);
    } catch (error) {
      // The same authenticator twice (excludeCredentials asks it not to), or, with no
      // attestation to tell, someone claiming a credential id that is already ours.
      if (isUniqueViolation(error)) throw new AppError('conflict', { info: M.alreadyAdded });
      throw error;
    }
  }

  async rename(request: FastifyRequest, user: UserRow, id: number, name: string) {
    const row = await this.db.transaction(async (tx) => {
      const current = await this.own(tx, user, id);
      const [renamed] = await tx
        .update(passkeys)
        .set({ name })
        .where(eq(passkeys.id, current.id))
        .returning();
      if (!renamed) throw new AppError('not_found', { info: M.notFound });
      await recordOwnAction(tx, request, 'passkeys.renamed', user, {
        passkey_id: id,
        from: current.name,
        to: name,
      });
      return renamed;
    });
    return presentPasskey(row);
  }

  /** After the password: a removed passkey no longer signs anyone in. */
  async remove(request: FastifyRequest, user: UserRow, id: number, password: string) {
    await checkPassword(this.deps, request, user, password);
    await this.db.transaction(async (tx) => {
      const [removed] = await tx
        .delete(passkeys)
        .where(and(eq(passkeys.id, id), eq(passkeys.userId, user.id)))
        .returning();
      if (!removed) throw new AppError('not_found', { info: M.notFound });
      await recordOwnAction(tx, request, 'passkeys.removed', user, {
        passkey_id: id,
        name: removed.name,
      });
    });
  }

  /** One of the user's passkeys; another person's is as unknown as a made-up id. */
  private async own(db: Database, user: UserRow, id: number): Promise<PasskeyRow> {
    const [row] = await db
      .select()
      .from(passkeys)
      .where(and(eq(passkeys.id, id), eq(passkeys.userId, user.id)))
      .limit(1)
      .for('update');
    if (!row) throw new AppError('not_found', { info: M.notFound });
    return row;
  }

  /** A refused registration changes nothing: its audit row is written on its own. */
  private async refuse(
    request: FastifyRequest,
    user: UserRow,
    reason: 'challenge' | 'invalid',
    error: AppError,
    detail?: string,
  ): Promise<never> {
    await recordAudit(this.db, request, {
      action: 'passkeys.refused',
      actorId: user.id,
      subjectType: 'user',
      subjectId: user.id,
      data: { ceremony: 'register', reason, ...(detail ? { detail } : {}) },
    });
    throw error;
  }
}
