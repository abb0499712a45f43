/**
 * Bare reads of the real server, the floor our figures are set against: undici `request` and `JSON.parse` on a pool
 * with the settings of src/api/dispatcher.ts (no client, no zod).
 */
import { Pool, request } from 'undici';

/** Rows per search page: the most a real server gives. */
export const PAGE = 100;
/** Every request, and the client's whole listing, must finish within this (a hung server fails the run). */
export const CALL_TIMEOUT_MS = 180_000;

/** A pool with the settings of src/api/dispatcher.ts. */
export const benchPool = (url: string): Pool => new Pool(new URL(url).origin, { connections: 8, keepAliveTimeout: 10_000 });

/** The search page at `offset`, by name, `filter` appended (`&project=…`). */
export const searchRoute = (offset: number, filter = ''): string =>
  `/api/admin/search/features?limit=${PAGE}&offset=${offset}&sortBy=name&sortOrder=asc${filter}`;

/**
 * GET `route` as JSON. unleash-server 8.x answers 429 to a burst of searches: this waits as told (Retry-After, at
 * most 10 s), at most 5 times, as the client's bounded GET retries do.
 */
export async function bareGet<T>(url: string, token: string, pool: Pool, route: string): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    const response = await request(`${url}${route}`, {
      dispatcher: pool,
      headers: { authorization: token, accept: 'application/json' },
      headersTimeout: CALL_TIMEOUT_MS,
      bodyTimeout: CALL_TIMEOUT_MS,
    });
    const text = await response.body.text();
    if (response.statusCode === 429 && attempt < 5) {
      const after = Number(response.headers['retry-after']);
      await new Promise((resolve) => setTimeout(resolve, Number.isFinite(after) ? Math.min(after * 1000, 10_000) : 1_000));
      continue;
    }
    if (response.statusCode !== 200) throw new Error(`GET ${route} → ${response.statusCode}`);
    return JSON.parse(text) as T;
  }
}

/** The export of every flag of `development`, as Export Environment asks it (`encoding`: the accept-encoding asked). */
export function bareExport(url: string, token: string, pool: Pool, encoding?: string): ReturnType<typeof request> {
  return request(`${url}/api/admin/features-batch/export`, {
    method: 'POST',
    dispatcher: pool,
    headers: { authorization: token, 'content-type': 'application/json', accept: 'application/json', ...(encoding ? { 'accept-encoding': encoding } : {}) },
    body: JSON.stringify({ environment: 'development', features: [], downloadFile: true }),
    headersTimeout: CALL_TIMEOUT_MS,
    bodyTimeout: CALL_TIMEOUT_MS,
  });
}
