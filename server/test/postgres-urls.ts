export const TEMPLATE_DATABASE = 'vpn_test_template';

export function withDatabaseName(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

/** The maintenance database of the same server, to create and drop test databases. */
export function adminUrl(url: string): string {
  return withDatabaseName(url, 'postgres');
}
