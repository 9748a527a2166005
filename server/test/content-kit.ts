import { and, eq } from 'drizzle-orm';
import { auditLog } from '../db/schema/index.ts';
import { endpointClient } from './api-client.ts';
import { createTestApp } from './test-app.ts';
import { signedInUser } from './test-sessions.ts';

/** SEO fields left empty but for a title, as the SEO screens send them. */
export const seoOf = (title: string) => ({
  seo_title: title,
  seo_description: '',
  focus_keyphrase: '',
  og_image_id: null,
  canonical_url: '',
});

/**
 * Staff's content through the real routes: an app with an admin and an author signed in,
 * a slug maker that never repeats, and the audit rows of a subject.
 */
export async function contentTestKit() {
  const { app } = await createTestApp();
  const admin = await signedInUser(app, { role: 'ADMIN' });
  let serial = 0;
  return {
    app,
    api: endpointClient(app),
    admin,
    author: await signedInUser(app, { role: 'AUTHOR' }),
    /** The admin's cookie, spread into a call. */
    as: { cookie: admin.cookie },
    fresh: (stem: string) => `${stem}-${Date.now().toString(36)}-${++serial}`,
    audited: (subjectType: string, id: number | string, action: string) =>
      app.db
        .select()
        .from(auditLog)
        .where(
          and(
            eq(auditLog.subjectType, subjectType),
            eq(auditLog.subjectId, String(id)),
            eq(auditLog.action, action),
          ),
        ),
  };
}
