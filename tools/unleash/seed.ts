/**
 * Creates SEED (seed-data.ts) in a freshly started Unleash through the Admin API.
 * SQL is used for one thing only: the second project (sql.ts).
 */
import { SEED, seedStrategies, type SegmentName, type SeedApiToken, type SeedFlag, type SeedStrategy } from './seed-data';
import { insertProjects } from './sql';

export * from './seed-data';

export interface SeededIds {
  /** Server-generated strategy ids (UUIDs on 7.5.1, ULIDs on 8.x), by SeedStrategy.key. */
  strategyIds: Record<string, string>;
  /** Server-generated segment ids, by name. */
  segmentIds: Record<SegmentName, number>;
  /** Server-generated link ids, by flag name (in SeedFlag.links order). */
  linkIds: Record<string, string[]>;
}

interface SeedResult {
  ids: SeededIds;
  seedMs: number;
  /** Number of HTTP calls the seed made. */
  calls: number;
}

interface SeedTarget {
  url: string;
  adminToken: string;
  /** Runs SQL against the server's database (as its owner). */
  psql(sql: string): Promise<string>;
  log?: (line: string) => void;
}

class AdminApiError extends Error {
  constructor(
    readonly method: string,
    readonly path: string,
    readonly status: number,
    readonly body: string,
  ) {
    super(`${method} ${path} → ${status}: ${body.slice(0, 2000)}`);
    this.name = 'AdminApiError';
  }
}

/**
 * A tiny Admin API client: JSON in, JSON out, any non-2xx throws AdminApiError with the body. Each call may take
 * `timeoutMs` (an import of hundreds of flags takes minutes on a busy machine).
 */
export function adminClient(url: string, token: string, timeoutMs = 30_000): {
  call<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
  count(): number;
} {
  let calls = 0;
  return {
    count: () => calls,
    async call<T>(method: string, path: string, body?: unknown): Promise<T> {
      calls++;
      const res = await fetch(url + path, {
        method,
        headers: {
          Authorization: token,
          Accept: 'application/json',
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
      const text = await res.text();
      if (!res.ok) throw new AdminApiError(method, path, res.status, text);
      return (text ? JSON.parse(text) : undefined) as T;
    },
  };
}

const enc = encodeURIComponent;

export async function seed(target: SeedTarget): Promise<SeedResult> {
  const started = Date.now();
  const log = target.log ?? (() => undefined);
  const api = adminClient(target.url, target.adminToken);

  // 1. Projects other than `default`: SQL, the only step that is not an Admin API call.
  await insertProjects(target.psql, SEED.projects.filter((p) => p.createdVia === 'sql'), SEED.environments);

  // 2. Context fields, tag types, tags (all independent of each other).
  await Promise.all([
    ...SEED.contextFields.map((c) =>
      api.call('POST', '/api/admin/context', {
        name: c.name,
        description: c.description,
        stickiness: c.stickiness,
        sortOrder: c.sortOrder,
        legalValues: c.legalValues,
      }),
    ),
    ...SEED.tagTypes
      .filter((t) => t.createdVia === 'api')
      .map((t) => api.call('POST', '/api/admin/tag-types', { name: t.name, description: t.description })),
  ]);
  // Create-tag trims the value (` legacy ` would become `legacy`); tagging a flag keeps it: a value with spaces at its
  // ends comes into being when its flag is tagged (step 4).
  const trimmedOnCreate = (t: { value: string }) => t.value.trim() !== t.value;
  await Promise.all(SEED.tags.filter((t) => !trimmedOnCreate(t)).map((t) => api.call('POST', '/api/admin/tags', { type: t.type, value: t.value })));

  // 3. Segments (need the project and the context fields to exist).
  const segmentIds = {} as Record<SegmentName, number>;
  for (const s of SEED.segments) {
    const created = await api.call<{ id: number }>('POST', '/api/admin/segments', {
      name: s.name,
      description: s.description,
      ...(s.project ? { project: s.project } : {}),
      constraints: s.constraints,
    });
    segmentIds[s.name] = created.id;
  }

  // 4. Flags, each with its strategies, environment variants, switches, tags, links.
  //    Flags are independent of each other, so they are seeded concurrently.
  const strategyIds: Record<string, string> = {};
  const linkIds: Record<string, string[]> = {};
  const seedOne = async (f: SeedFlag): Promise<void> => {
    const base = `/api/admin/projects/${enc(f.project)}/features`;
    const feature = `${base}/${enc(f.name)}`;
    await api.call('POST', base, { name: f.name, type: f.type, description: f.description, impressionData: f.impressionData });
    for (const e of SEED.environments) {
      const fe = f.environments[e];
      for (const s of fe.strategies) {
        const created = await api.call<{ id: string }>(
          'POST',
          `${feature}/environments/${e}/strategies`,
          strategyBody(s, segmentIds),
        );
        strategyIds[s.key] = created.id;
      }
      if (fe.variants.length > 0) {
        // Feature-level variants: 403 "Environment variants deprecated" unless the server runs
        // with UNLEASH_EXPERIMENTAL_ENABLE_LEGACY_VARIANTS=true.
        await api.call('PUT', `${feature}/environments/${e}/variants`, fe.variants);
      }
      // Strategies are added before switching on: enabling an environment without strategies
      // makes the server add a default flexibleRollout on its own.
      if (fe.enabled) await api.call('POST', `${feature}/environments/${e}/on`);
    }
    for (const t of f.tags) await api.call('POST', `/api/admin/features/${enc(f.name)}/tags`, { type: t.type, value: t.value });
    // Feature links: POST .../features/:f/link exists in 7.5.1 (createFeatureLink in /docs/openapi.json).
    for (const l of f.links) {
      // 7.5.1 answers 204 without a body; newer servers may return the link. Ids are read back below otherwise.
      const created = await api.call<{ id?: string } | undefined>('POST', `${feature}/link`, { url: l.url, title: l.title });
      (linkIds[f.name] ??= []).push(created?.id ?? '');
    }
  };
  await Promise.all(SEED.flags.map(seedOne));

  // 5. Dependencies (after both flags exist).
  for (const f of SEED.flags) {
    for (const d of f.dependencies) {
      await api.call('POST', `/api/admin/projects/${enc(f.project)}/features/${enc(f.name)}/dependencies`, {
        feature: d.feature,
        enabled: d.enabled,
        variants: d.variants,
      });
    }
  }

  // 5b. Complete a flag (lifecycle), so that its stage reads `completed (kept)`.
  await api.call(
    'POST',
    `/api/admin/projects/${enc(SEED.completed.project)}/features/${enc(SEED.completed.flag)}/lifecycle/complete`,
    { status: SEED.completed.status },
  );

  // 6. Archive last, so the archived flag carries its strategies, tags and switches.
  for (const f of SEED.flags.filter((x) => x.archived)) {
    await api.call('DELETE', `/api/admin/projects/${enc(f.project)}/features/${enc(f.name)}`);
  }

  // Link ids (ULIDs even on 7.5.1): read back, since creating a link answers 204 with no body.
  for (const f of SEED.flags.filter((x) => x.links.length > 0 && !x.archived)) {
    if ((linkIds[f.name] ?? []).every((id) => id !== '')) continue;
    const got = await api.call<{ links?: { id: string; url: string }[] }>(
      'GET',
      `/api/admin/projects/${enc(f.project)}/features/${enc(f.name)}`,
    );
    linkIds[f.name] = f.links.map((l) => got.links?.find((x) => x.url === l.url)?.id ?? '');
  }

  const seedMs = Date.now() - started;
  log(`seed: ${api.count()} calls in ${seedMs} ms`);
  // Flags were seeded concurrently: list the strategy ids in SEED order.
  const orderedStrategyIds = Object.fromEntries(seedStrategies().map(({ strategy }) => [strategy.key, strategyIds[strategy.key] ?? '']));
  return { ids: { strategyIds: orderedStrategyIds, segmentIds, linkIds }, seedMs, calls: api.count() };
}

/**
 * Creates the backend and frontend API tokens of SEED.apiTokens (the harness does this even
 * without the seed). Admin tokens cannot be created through the API in 7.x: the admin token is
 * an init token given to start().
 */
export async function createApiTokens(url: string, adminToken: string): Promise<{ backendToken: string; frontendToken: string }> {
  const api = adminClient(url, adminToken);
  const create = (t: SeedApiToken): Promise<{ secret: string }> =>
    api.call<{ secret: string }>('POST', '/api/admin/api-tokens', {
      tokenName: t.tokenName,
      type: t.type,
      environment: t.environment,
      projects: t.projects,
    });
  const [backend, frontend] = await Promise.all([create(SEED.apiTokens.backend), create(SEED.apiTokens.frontend)]);
  return { backendToken: backend.secret, frontendToken: frontend.secret };
}

function strategyBody(s: SeedStrategy, segmentIds: Record<SegmentName, number>): Record<string, unknown> {
  return {
    name: s.name,
    ...(s.title !== undefined ? { title: s.title } : {}),
    disabled: s.disabled,
    sortOrder: s.sortOrder,
    parameters: s.parameters,
    constraints: s.constraints,
    variants: s.variants,
    segments: s.segments.map((n) => segmentIds[n]),
  };
}

