export * from './audit-log.ts';
export * from './countries.ts';
export * from './users.ts';
