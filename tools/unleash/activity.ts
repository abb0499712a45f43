/**
 * Activity on a real Unleash, as people and SDKs make it: changes to a flag (recorded in the event log) and
 * evaluation counts sent with a backend token (`POST /api/client/metrics`, shown once the server has flushed them,
 * about 5 s later). For the tests of history and usage (activity.contract.test.ts, the e2e suite). Every wait is
 * bounded.
 */
import { adminClient } from './seed';

/** Evaluations of one flag in one metrics report. */
interface FlagCounts {
  yes: number;
  no: number;
  variants?: Record<string, number>;
}

/**
 * Changes `new-checkout-flow` in production the way a person would, in this order: edits a constraint of its
 * strategy "Staff e-mail addresses" (`@Example.com` → `@example.org`), adds a Standard strategy titled
 * "Everyone at launch", and enables the environment. The newest event is then the enabling.
 */
export async function changeCheckoutFlowInProduction(url: string, adminToken: string): Promise<void> {
  const api = adminClient(url, adminToken);
  const base = '/api/admin/projects/default/features/new-checkout-flow/environments/production';
  const feature = await api.call<{ environments: Array<{ name: string; strategies: Array<Record<string, unknown> & { id: string; title?: string }> }> }>(
    'GET',
    '/api/admin/projects/default/features/new-checkout-flow',
  );
  const staff = feature.environments.find((env) => env.name === 'production')?.strategies.find((s) => s.title === 'Staff e-mail addresses');
  if (!staff) throw new Error('the seeded strategy "Staff e-mail addresses" is missing');
  const constraints = (staff.constraints as Array<Record<string, unknown>>).map((constraint, index) =>
    index === 0 ? { ...constraint, values: ['@example.org'] } : constraint,
  );
  const { id, ...rest } = staff;
  await api.call('PUT', `${base}/strategies/${id}`, { ...rest, constraints });
  await api.call('POST', `${base}/strategies`, { name: 'default', title: 'Everyone at launch', constraints: [], parameters: {} });
  await api.call('POST', `${base}/on`);
}

/** A backend token for one environment (the environment its metrics count in). */
export async function backendToken(url: string, adminToken: string, environment: string): Promise<string> {
  const api = adminClient(url, adminToken);
  const created = await api.call<{ secret: string }>('POST', '/api/admin/api-tokens', {
    tokenName: `metrics-${environment}-${Date.now()}`,
    type: 'backend',
    environment,
    projects: ['*'],
  });
  return created.secret;
}

/** Reports evaluations as an SDK does: one bucket of the last minute, for the token's environment. */
export async function sendMetrics(url: string, token: string, appName: string, toggles: Record<string, FlagCounts>): Promise<void> {
  const stop = new Date();
  const start = new Date(stop.getTime() - 60_000);
  const body = {
    appName,
    instanceId: `${appName}-1`,
    bucket: { start: start.toISOString(), stop: stop.toISOString(), toggles: Object.fromEntries(Object.entries(toggles).map(([name, c]) => [name, { variants: {}, ...c }])) },
  };
  const res = await fetch(`${url}/api/client/metrics`, {
    method: 'POST',
    headers: { Authorization: token, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  if (res.status !== 202 && res.status !== 200) throw new Error(`POST /api/client/metrics → ${res.status}: ${await res.text()}`);
}

/**
 * Waits until the server shows `evaluations` of `flag` in total over the last hours (it flushes metrics every few
 * seconds), polling at most `timeoutMs`.
 */
export async function waitForUsage(url: string, adminToken: string, flag: string, evaluations: number, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let seen = 0;
  while (Date.now() < deadline) {
    const res = await fetch(`${url}/api/admin/client-metrics/features/${encodeURIComponent(flag)}/raw?hoursBack=24`, {
      headers: { Authorization: adminToken },
      signal: AbortSignal.timeout(30_000),
    });
    const body = (await res.json()) as { data?: Array<{ yes?: number; no?: number }> };
    seen = (body.data ?? []).reduce((sum, row) => sum + (row.yes ?? 0) + (row.no ?? 0), 0);
    if (seen >= evaluations) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`the server showed ${seen} of ${evaluations} evaluations of ${flag} after ${timeoutMs / 1000} s`);
}
