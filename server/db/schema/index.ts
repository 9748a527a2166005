export * from './audit-log.ts';
export * from './countries.ts';
export * from './mail-outbox.ts';
export * from './oauth-accounts.ts';
export * from './one-time-tokens.ts';
export * from './sessions.ts';
export * from './two-factor.ts';
export * from './users.ts';
