/**
 * Reads the seeded data back from a running server and lists every way it differs from SEED.
 * An empty list means SEED is a true description of the server. Uses only GET requests
 * (no export: every export writes an audit event with the full payload).
 */
import { isDeepStrictEqual } from 'node:util';
import { adminClient, type SeededIds } from './seed';
import { SEED, constraintAsReturned, type SeedStrategy, type SeedTag } from './seed-data';

interface ApiStrategy {
  id: string;
  name: string;
  title: string | null;
  disabled: boolean | null;
  sortOrder: number;
  parameters: Record<string, string>;
  constraints: unknown[];
  variants: unknown[];
  segments: number[];
}
interface ApiFeature {
  name: string;
  type: string;
  description: string | null;
  project: string;
  impressionData: boolean;
  archived: boolean;
  environments: { name: string; enabled: boolean; variants?: unknown[]; strategies: ApiStrategy[] }[];
  dependencies: { feature: string; enabled: boolean; variants: string[] }[];
  children: string[];
  links?: { id: string; url: string; title: string | null }[];
}

const tagKey = (t: SeedTag): string => `${t.type}:${t.value}`;
const sortedTags = (tags: readonly SeedTag[]): string[] => tags.map(tagKey).sort();

export async function verifySeed(url: string, adminToken: string, seeded: SeededIds): Promise<string[]> {
  const api = adminClient(url, adminToken);
  const problems: string[] = [];
  const expect = (what: string, actual: unknown, expected: unknown): void => {
    if (!isDeepStrictEqual(actual, expected)) {
      problems.push(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
    }
  };
  const segmentName = new Map(Object.entries(seeded.segmentIds).map(([name, id]) => [id, name]));

  // Segments
  const { segments } = await api.call<{
    segments: { id: number; name: string; description: string | null; project?: string; constraints: unknown[] }[];
  }>('GET', '/api/admin/segments');
  for (const s of SEED.segments) {
    const got = segments.find((x) => x.name === s.name);
    if (!got) {
      problems.push(`segment ${s.name} missing`);
      continue;
    }
    expect(`segment ${s.name} id`, got.id, seeded.segmentIds[s.name]);
    expect(`segment ${s.name} description`, got.description, s.description);
    expect(`segment ${s.name} project`, got.project, s.project);
    expect(`segment ${s.name} constraints`, got.constraints, s.constraints.map(constraintAsReturned));
  }

  // Tags, tag types, context fields
  const { tags } = await api.call<{ tags: SeedTag[] }>('GET', '/api/admin/tags');
  expect('tags', sortedTags(tags), sortedTags(SEED.tags));
  const { tagTypes } = await api.call<{ tagTypes: { name: string; description: string }[] }>('GET', '/api/admin/tag-types');
  for (const t of SEED.tagTypes) expect(`tag type ${t.name}`, tagTypes.find((x) => x.name === t.name)?.description, t.description);
  const context = await api.call<{ name: string; description: string; stickiness: boolean; sortOrder: number; legalValues: unknown[] }[]>(
    'GET',
    '/api/admin/context',
  );
  for (const c of SEED.contextFields) {
    const got = context.find((x) => x.name === c.name);
    expect(`context field ${c.name}`, got && { description: got.description, stickiness: got.stickiness, sortOrder: got.sortOrder, legalValues: got.legalValues }, {
      description: c.description,
      stickiness: c.stickiness,
      sortOrder: c.sortOrder,
      legalValues: c.legalValues,
    });
  }

  // Projects: the flags each project lists
  for (const p of SEED.projects) {
    const { features } = await api.call<{ features: { name: string }[] }>('GET', `/api/admin/projects/${p.id}/features`);
    expect(
      `flags listed in project ${p.id}`,
      features.map((f) => f.name).sort(),
      SEED.flags.filter((f) => f.project === p.id && !f.archived).map((f) => f.name).sort(),
    );
  }

  // Flags
  const strategyExpect = (where: string, got: ApiStrategy | undefined, s: SeedStrategy): void => {
    if (!got) {
      problems.push(`${where}: strategy missing`);
      return;
    }
    expect(`${where} id`, got.id, seeded.strategyIds[s.key]);
    expect(
      `${where}`,
      {
        name: got.name,
        title: got.title,
        disabled: got.disabled,
        sortOrder: got.sortOrder,
        parameters: got.parameters,
        constraints: got.constraints,
        variants: got.variants,
        segments: got.segments.map((id) => segmentName.get(id) ?? `#${id}`),
      },
      {
        name: s.name,
        title: s.title ?? null,
        disabled: s.disabled,
        sortOrder: s.sortOrder,
        parameters: s.parameters,
        constraints: s.constraints.map(constraintAsReturned),
        variants: s.variants,
        segments: s.segments,
      },
    );
  };

  const { features: archived } = await api.call<{ features: { name: string; archivedAt: string | null }[] }>(
    'GET',
    '/api/admin/search/features?archived=IS:true&limit=100',
  );
  expect('archived flags', archived.map((f) => f.name).sort(), [...SEED.archivedFlags].sort());

  for (const f of SEED.flags) {
    const { tags: flagTags } = await api.call<{ tags: SeedTag[] }>('GET', `/api/admin/features/${encodeURIComponent(f.name)}/tags`);
    expect(`tags of ${f.name}`, sortedTags(flagTags), sortedTags(f.tags));
    if (f.archived) continue; // GET feature answers 404 for archived flags
    const got = await api.call<ApiFeature>(
      'GET',
      `/api/admin/projects/${f.project}/features/${encodeURIComponent(f.name)}?variantEnvironments=true`,
    );
    expect(`flag ${f.name}`, {
      name: got.name,
      type: got.type,
      description: got.description,
      project: got.project,
      impressionData: got.impressionData,
      archived: got.archived,
    }, { name: f.name, type: f.type, description: f.description, project: f.project, impressionData: f.impressionData, archived: false });
    expect(`dependencies of ${f.name}`, got.dependencies, f.dependencies);
    expect(`children of ${f.name}`, got.children, f.children);
    expect(`links of ${f.name}`, (got.links ?? []).map((l) => ({ url: l.url, title: l.title })), f.links);
    expect(`link ids of ${f.name}`, (got.links ?? []).map((l) => l.id), seeded.linkIds[f.name] ?? []);
    for (const e of SEED.environments) {
      const ge = got.environments.find((x) => x.name === e);
      const se = f.environments[e];
      const where = `${f.name}/${e}`;
      if (!ge) {
        problems.push(`${where}: environment missing`);
        continue;
      }
      expect(`${where} enabled`, ge.enabled, se.enabled);
      expect(`${where} variants`, ge.variants ?? [], se.variants);
      expect(`${where} strategy count`, ge.strategies.length, se.strategies.length);
      for (const s of se.strategies) strategyExpect(`${where} strategy ${s.key}`, ge.strategies.find((x) => x.id === seeded.strategyIds[s.key]), s);
    }
  }
  return problems;
}

/**
 * Recovers the server-generated ids of a seeded server from its URL and admin token alone
 * (for a test process that did not start the server itself, e.g. one given only
 * UNLEASH_CONTRACT_URL/TOKEN). Strategies are matched by flag, environment and sortOrder
 * (the seed sends sortOrder explicitly); an archived flag's strategies come from one export
 * per environment (GET feature answers 404 for archived flags), matched by content.
 */
export async function readSeededIds(url: string, adminToken: string): Promise<SeededIds> {
  const api = adminClient(url, adminToken);
  const { segments } = await api.call<{ segments: { id: number; name: string }[] }>('GET', '/api/admin/segments');
  const segmentIds = {} as SeededIds['segmentIds'];
  for (const s of SEED.segments) {
    const found = segments.find((x) => x.name === s.name);
    if (!found) throw new Error(`segment ${s.name} not found on ${url}`);
    segmentIds[s.name] = found.id;
  }
  const strategyIds: Record<string, string> = {};
  const linkIds: Record<string, string[]> = {};
  for (const f of SEED.flags) {
    if (f.archived) {
      for (const e of SEED.environments) {
        if (f.environments[e].strategies.length === 0) continue;
        const exported = await api.call<{ featureStrategies: (ApiStrategy & { featureName: string })[] }>(
          'POST',
          '/api/admin/features-batch/export',
          { environment: e, features: [f.name] },
        );
        const pool = exported.featureStrategies.filter((x) => x.featureName === f.name);
        for (const s of f.environments[e].strategies) {
          const i = pool.findIndex(
            (x) =>
              x.name === s.name &&
              x.title === (s.title ?? null) &&
              isDeepStrictEqual(x.parameters, s.parameters) &&
              isDeepStrictEqual(x.constraints, s.constraints.map(constraintAsReturned)),
          );
          if (i < 0) throw new Error(`strategy ${s.key} not found in the export`);
          strategyIds[s.key] = pool[i].id;
          pool.splice(i, 1);
        }
      }
      continue;
    }
    const got = await api.call<ApiFeature>('GET', `/api/admin/projects/${f.project}/features/${encodeURIComponent(f.name)}`);
    for (const e of SEED.environments) {
      const ge = got.environments.find((x) => x.name === e);
      for (const s of f.environments[e].strategies) {
        const found = ge?.strategies.find((x) => x.sortOrder === s.sortOrder && x.name === s.name);
        if (!found) throw new Error(`strategy ${s.key} not found on ${url}`);
        strategyIds[s.key] = found.id;
      }
    }
    if (f.links.length > 0) linkIds[f.name] = f.links.map((l) => got.links?.find((x) => x.url === l.url)?.id ?? '');
  }
  const ordered = Object.fromEntries(
    SEED.flags.flatMap((f) => SEED.environments.flatMap((e) => f.environments[e].strategies.map((s) => [s.key, strategyIds[s.key]]))),
  );
  return { strategyIds: ordered, segmentIds, linkIds };
}
