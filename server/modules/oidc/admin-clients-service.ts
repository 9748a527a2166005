import {
  and,
  asc,
  count,
  desc,
  eq,
  gt,
  ilike,
  inArray,
  isNotNull,
  isNull,
  or,
  sql,
} from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type {
  AdminOAuthClient,
  OAuthClientCreateRequest,
  OAuthClientsQuery,
  OAuthClientUpdateRequest,
  OAuthClientWithSecretResponse,
} from '#shared/contracts/admin/oauth-clients.ts';
import { listPage, pageWindow } from '#shared/contracts/list.ts';
import { clientProblems, OAUTH_CLIENT_MESSAGES } from '#shared/oauth/client-rules.ts';
import type { Database } from '../../db/client.ts';
import { containing } from '../../db/like.ts';
import { type OAuthClientRow, oauthClients, oidcModels } from '../../db/schema/index.ts';
import { AppError } from '../../http/app-error.ts';
import type { SecretBox } from '../../platform/crypto/secret-box.ts';
import { type AuditAction, recordAudit } from '../audit/audit-log.ts';
import { presentOAuthClient } from './oauth-client-presenter.ts';
import { createOAuthClient, newClientSecret } from './oauth-clients-service.ts';

/** The acting admin and their request, for the audit row of each change. */
export interface Acting {
  request: Pick<FastifyRequest, 'ip' | 'headers'>;
  actorId: number;
}

export interface AdminClientsDeps {
  db: Database;
  oidcClientBox: SecretBox;
}

type Tx = Database;

const unique = <T>(items: readonly T[]): T[] => [...new Set(items)];

/** The fields' refusals for a client of this type, as the envelope names them (§5). */
function checkFields(fields: Parameters<typeof clientProblems>[0]): void {
  const problems = clientProblems(fields);
  if (problems.length === 0) return;
  const validation: Record<string, string[]> = {};
  for (const problem of problems) validation[problem.field] = [problem.message];
  throw new AppError('validation_failed', { validation });
}

/**
 * Staff's OAuth clients (§2 /admin/oauth/server). The provider reads a client's row on every
 * lookup (oidc-clients.ts), so each change here, a new secret or a disable, holds in every
 * process from the moment it commits. Each change writes its audit row in its transaction.
 */
export class AdminClientsService {
  constructor(private readonly deps: AdminClientsDeps) {}

  async list(query: OAuthClientsQuery) {
    const { db } = this.deps;
    const filters = [
      query.type ? eq(oauthClients.type, query.type) : undefined,
      query.status === 'disabled' ? isNotNull(oauthClients.disabledAt) : undefined,
      query.status === 'active' ? isNull(oauthClients.disabledAt) : undefined,
      query.search
        ? or(
            ilike(oauthClients.name, containing(query.search)),
            ilike(oauthClients.clientId, containing(query.search)),
          )
        : undefined,
    ];
    const where = and(...filters);
    const order = query.direction === 'asc' ? asc : desc;
    const sortBy =
      query.sort === 'name' ? sql`lower(${oauthClients.name})` : sql`${oauthClients.createdAt}`;
    const { offset, limit } = pageWindow(query);
    const rows = await db
      .select()
      .from(oauthClients)
      .where(where)
      .orderBy(order(sortBy), asc(oauthClients.id))
      .offset(offset)
      .limit(limit);
    const [total] = await db.select({ n: count() }).from(oauthClients).where(where);
    const grants = await this.grantCounts(rows.map((row) => row.clientId));
    return listPage(
      rows.map((row) => presentOAuthClient(row, grants.get(row.clientId) ?? 0)),
      query,
      total?.n ?? 0,
    );
  }

  async view(clientId: string): Promise<AdminOAuthClient> {
    const row = await this.find(this.deps.db, clientId);
    const grants = await this.grantCounts([clientId]);
    return presentOAuthClient(row, grants.get(clientId) ?? 0);
  }

  async create(
    acting: Acting,
    input: OAuthClientCreateRequest,
  ): Promise<OAuthClientWithSecretResponse> {
    const made = await this.deps.db.transaction(async (tx) => {
      const { client, secret } = await createOAuthClient(tx, this.deps.oidcClientBox, {
        name: input.name,
        type: input.type,
        firstParty: input.first_party,
        redirectUris: unique(input.redirect_uris),
        postLogoutRedirectUris: unique(input.post_logout_redirect_uris),
        grantTypes: unique(input.grant_types),
        scopes: unique(input.scopes),
        logoUri: input.logo_uri || null,
      });
      await this.audit(tx, acting, 'oauth_clients.created', client, {
        name: client.name,
        type: client.type,
        first_party: client.firstParty,
        redirect_uris: client.redirectUris,
        grant_types: client.grantTypes,
        scopes: client.scopes,
      });
      return { client, secret };
    });
    return { client: presentOAuthClient(made.client, 0), secret: made.secret };
  }

  async update(acting: Acting, input: OAuthClientUpdateRequest): Promise<AdminOAuthClient> {
    await this.deps.db.transaction(async (tx) => {
      const row = await this.find(tx, input.client_id, true);
      const fields = {
        type: row.type,
        redirect_uris: unique(input.redirect_uris),
        post_logout_redirect_uris: unique(input.post_logout_redirect_uris),
        grant_types: unique(input.grant_types),
        scopes: unique(input.scopes),
        logo_uri: input.logo_uri || null,
      };
      checkFields(fields);
      const next = {
        name: input.name,
        firstParty: input.first_party,
        redirectUris: fields.redirect_uris,
        postLogoutRedirectUris: fields.post_logout_redirect_uris,
        grantTypes: fields.grant_types,
        scopes: fields.scopes,
        logoUri: fields.logo_uri,
      };
      await tx.update(oauthClients).set(next).where(eq(oauthClients.id, row.id));
      // What changed, before and after: the log says who widened an app's reach.
      const changes: Record<string, { from: unknown; to: unknown }> = {};
      for (const [key, value] of Object.entries(next)) {
        const before = row[key as keyof typeof next];
        if (JSON.stringify(before) !== JSON.stringify(value)) {
          changes[key] = { from: before, to: value };
        }
      }
      await this.audit(tx, acting, 'oauth_clients.updated', row, { changes });
    });
    return this.view(input.client_id);
  }

  /** A new secret; the old one stops at the commit (the provider compares with the row). */
  async rotateSecret(acting: Acting, clientId: string): Promise<OAuthClientWithSecretResponse> {
    const secret = newClientSecret();
    await this.deps.db.transaction(async (tx) => {
      const row = await this.find(tx, clientId, true);
      if (row.type !== 'confidential') {
        throw new AppError('conflict', { info: OAUTH_CLIENT_MESSAGES.publicNoSecret });
      }
      await tx
        .update(oauthClients)
        .set({ secretSealed: this.deps.oidcClientBox.seal(secret), secretRotatedAt: new Date() })
        .where(eq(oauthClients.id, row.id));
      await this.audit(tx, acting, 'oauth_clients.secret_rotated', row, {
        had_secret: row.secretSealed !== null,
      });
    });
    return { client: await this.view(clientId), secret };
  }

  /**
   * No secret at all: the client cannot authenticate (the provider treats it as unknown)
   * until a new one is made. For a secret that leaked when no new one can be deployed yet.
   */
  async revokeSecret(acting: Acting, clientId: string): Promise<AdminOAuthClient> {
    await this.deps.db.transaction(async (tx) => {
      const row = await this.find(tx, clientId, true);
      if (row.type !== 'confidential') {
        throw new AppError('conflict', { info: OAUTH_CLIENT_MESSAGES.publicNoSecret });
      }
      if (row.secretSealed === null) {
        throw new AppError('conflict', { info: OAUTH_CLIENT_MESSAGES.noSecret });
      }
      await tx
        .update(oauthClients)
        .set({ secretSealed: null, secretRotatedAt: new Date() })
        .where(eq(oauthClients.id, row.id));
      await this.audit(tx, acting, 'oauth_clients.secret_revoked', row, {});
    });
    return this.view(clientId);
  }

  /**
   * Refused everywhere from the commit on, and everything it was given is deleted: grants,
   * codes, access and refresh tokens. Enabled again, people must allow it anew.
   */
  async disable(acting: Acting, clientId: string): Promise<AdminOAuthClient> {
    await this.deps.db.transaction(async (tx) => {
      const row = await this.find(tx, clientId, true);
      const grants = await tx
        .select({ id: oidcModels.id })
        .from(oidcModels)
        .where(and(eq(oidcModels.model, 'Grant'), eq(oidcModels.clientId, clientId)));
      const grantIds = grants.map((grant) => grant.id);
      const removed = await tx
        .delete(oidcModels)
        .where(
          or(
            eq(oidcModels.clientId, clientId),
            grantIds.length > 0 ? inArray(oidcModels.grantId, grantIds) : undefined,
          ),
        )
        .returning({ model: oidcModels.model });
      if (row.disabledAt === null) {
        await tx
          .update(oauthClients)
          .set({ disabledAt: new Date() })
          .where(eq(oauthClients.id, row.id));
      }
      await this.audit(tx, acting, 'oauth_clients.disabled', row, {
        grants_revoked: grantIds.length,
        rows_removed: removed.length,
      });
    });
    return this.view(clientId);
  }

  async enable(acting: Acting, clientId: string): Promise<AdminOAuthClient> {
    await this.deps.db.transaction(async (tx) => {
      const row = await this.find(tx, clientId, true);
      if (row.disabledAt === null) return;
      await tx.update(oauthClients).set({ disabledAt: null }).where(eq(oauthClients.id, row.id));
      await this.audit(tx, acting, 'oauth_clients.enabled', row, {});
    });
    return this.view(clientId);
  }

  private async find(db: Tx, clientId: string, forUpdate = false): Promise<OAuthClientRow> {
    const query = db
      .select()
      .from(oauthClients)
      .where(eq(oauthClients.clientId, clientId))
      .limit(1);
    const [row] = forUpdate ? await query.for('update') : await query;
    if (!row) throw new AppError('not_found');
    return row;
  }

  /** Live grants per client: people who allowed it and have not revoked it. */
  private async grantCounts(clientIds: string[]): Promise<Map<string, number>> {
    if (clientIds.length === 0) return new Map();
    const rows = await this.deps.db
      .select({ clientId: oidcModels.clientId, n: count() })
      .from(oidcModels)
      .where(
        and(
          eq(oidcModels.model, 'Grant'),
          inArray(oidcModels.clientId, clientIds),
          or(isNull(oidcModels.expiresAt), gt(oidcModels.expiresAt, sql`now()`)),
        ),
      )
      .groupBy(oidcModels.clientId);
    return new Map(rows.map((row) => [row.clientId ?? '', Number(row.n)]));
  }

  private audit(
    tx: Tx,
    acting: Acting,
    action: AuditAction,
    row: OAuthClientRow,
    data: Record<string, unknown>,
  ): Promise<void> {
    return recordAudit(tx, acting.request, {
      action,
      actorId: acting.actorId,
      subjectType: 'oauth_client',
      subjectId: row.clientId,
      data: { name: row.name, ...data },
    });
  }
}
