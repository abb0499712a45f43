/**
 * A personal access token of the harness's admin user: `POST /api/admin/features-batch/import` refuses admin API
 * tokens ("You can't use an admin token to import features"), it needs a user or a service account. Logs in as the
 * admin user and creates a token valid for a day. Used by the export/import contract test and bench/real/fill.ts.
 */
import { request } from 'undici';

export async function personalToken(url: string, admin: { username: string; password: string }, description = 'contract tests'): Promise<string> {
  const login = await request(`${url}/auth/simple/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(admin),
    headersTimeout: 60_000,
    bodyTimeout: 60_000,
  });
  await login.body.text();
  const setCookie = login.headers['set-cookie'];
  const cookie = (Array.isArray(setCookie) ? setCookie : [setCookie ?? '']).map((c) => c.split(';')[0]).join('; ');
  if (login.statusCode !== 200 || !cookie) throw new Error(`login as ${admin.username} → ${login.statusCode}`);
  const response = await request(`${url}/api/admin/user/tokens`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json' },
    body: JSON.stringify({ description, expiresAt: new Date(Date.now() + 86_400_000).toISOString() }),
    headersTimeout: 60_000,
    bodyTimeout: 60_000,
  });
  const text = await response.body.text();
  if (response.statusCode !== 201) throw new Error(`POST /api/admin/user/tokens → ${response.statusCode}: ${text.slice(0, 500)}`);
  return (JSON.parse(text) as { secret: string }).secret;
}
