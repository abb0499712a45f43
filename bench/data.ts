/**
 * Deterministic data sets for the benchmarks: N flags (seeded PRNG), shaped exactly like what a real Unleash 7.5.1
 * answers (see docs/unleash-api-notes.md and test/fixtures/):
 *
 * - `searchItems`: the rows of `GET /api/admin/search/features`, sorted by name (as `sortBy=name&sortOrder=asc`);
 * - `exportFor(environment)`: the body of `POST /api/admin/features-batch/export` with `features: []` (every
 *   non-archived flag of every project), with the strategies in an undefined (shuffled) order, as the real server.
 *
 * Every flag has two environments (development, production), one or two flexibleRollout strategies per environment
 * with 1–3 constraints over the operators a real server knows, strategy variants, a `team:*` tag (some `jira:*` and
 * `simple:*` too), segments on some strategies, a parent dependency on a few and links on a few.
 *
 * Nothing here depends on the clock or on Math.random: the same (flags, seed) gives the same bytes.
 */

/** A small, fast, seedable PRNG (Mulberry32). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// ---- Shapes of the real responses ------------------------------------------------------------------------------

interface SearchEnvironment {
  name: string;
  enabled: boolean;
  type: string;
  sortOrder: number;
  variantCount: number;
  lastSeenAt: string | null;
  hasStrategies: boolean;
  hasEnabledStrategies: boolean;
}

/** One row of `GET /api/admin/search/features` (7.5.1). */
export interface SearchItem {
  type: string;
  description: string | null;
  favorite: boolean;
  name: string;
  project: string;
  createdAt: string;
  stale: boolean;
  impressionData: boolean;
  lastSeenAt: string | null;
  archivedAt: null;
  dependencyType: 'parent' | 'child' | null;
  environments: SearchEnvironment[];
  segments: string[];
  tags: Array<{ value: string; type: string }>;
  lifecycle: { stage: string; enteredStageAt: string };
}

interface ExportConstraint {
  values: string[];
  inverted: boolean;
  operator: string;
  contextName: string;
  caseInsensitive: boolean;
  value?: string;
}

interface ExportStrategyVariant {
  name: string;
  weight: number;
  payload?: { type: string; value: string };
  stickiness: string;
  weightType: string;
}

/** One `featureStrategies` entry of an export: no sortOrder, a UUID id. */
export interface ExportStrategy {
  name: string;
  id: string;
  featureName: string;
  title: string | null;
  parameters: Record<string, string>;
  constraints: ExportConstraint[];
  variants: ExportStrategyVariant[];
  disabled: boolean;
  segments: number[];
}

export interface ExportEnvironmentVariant {
  name: string;
  weight: number;
  payload?: { type: string; value: string };
  overrides: Array<{ values: string[]; contextName: string }>;
  stickiness: string;
  weightType: string;
}

export interface ExportBody {
  features: Array<{ name: string; description: string | null; type: string; project: string; stale: boolean; impressionData: boolean; archived: boolean }>;
  featureStrategies: ExportStrategy[];
  featureEnvironments: Array<{ enabled: boolean; featureName: string; environment: string; variants: ExportEnvironmentVariant[]; name: string }>;
  contextFields: Array<{ name: string; description: string; stickiness: boolean; sortOrder: number; legalValues: Array<{ value: string; description?: string }> }>;
  featureTags: Array<{ featureName: string; tagType: string; tagValue: string }>;
  segments: Array<{ id: number; name: string }>;
  tagTypes: Array<{ name: string; description: string; icon: string | null; color: null }>;
  dependencies: Array<{ feature: string; dependencies: Array<{ feature: string; enabled: boolean; variants: string[] }> }>;
  links: Array<{ feature: string; links: Array<{ id: string; url: string; title: string | null }> }>;
}

// ---- Vocabulary -------------------------------------------------------------------------------------------------

export const ENVIRONMENTS = [
  { name: 'development', type: 'development', sortOrder: 100 },
  { name: 'production', type: 'production', sortOrder: 200 },
] as const;

const PROJECTS: Array<[string, number]> = [
  ['default', 0.4], ['checkout', 0.15], ['growth', 0.15], ['platform', 0.15], ['mobile', 0.1], ['bulk', 0.05],
];
const TYPES: Array<[string, number]> = [
  ['release', 0.55], ['experiment', 0.15], ['operational', 0.15], ['kill-switch', 0.1], ['permission', 0.05],
];
const AREAS = [
  'checkout', 'search', 'billing', 'payments', 'onboarding', 'profile', 'cart', 'inventory', 'shipping',
  'notifications', 'auth', 'admin', 'reports', 'dashboard', 'catalog', 'pricing', 'reviews', 'orders', 'analytics',
  'support', 'settings', 'mobile', 'web', 'api', 'gateway', 'ledger', 'invoices', 'tax',
];
const FEATURES = [
  'apple-pay', 'google-pay', 'new-layout', 'dark-mode', 'one-click', 'guest', 'express', 'bulk-edit', 'export',
  'import', 'sso', 'mfa', 'passkeys', 'autocomplete', 'fuzzy', 'facets', 'recommendations', 'banner', 'tooltips',
  'wizard', 'redesign', 'caching', 'rate-limit', 'retry', 'batching', 'streaming', 'webhooks', 'audit-log', 'csv',
  'pdf', 'i18n', 'rtl', 'beta', 'preview', 'sidebar', 'filters', 'sorting',
];
const SUFFIXES = ['', '', '', '-v2', '-v3', '-experiment', '-killswitch', '-rollout', '-beta', '-internal'];
const TEAMS = ['payments', 'growth', 'platform', 'mobile', 'data', 'infra', 'fintech', 'ux', 'core', 'search'];
const DESCRIPTIONS = [
  'Roll out the new flow to every market, step by step',
  'Kill switch for the integration, in case the provider has an outage',
  'A/B test of the layout on the product page',
  'Internal users only until the security review is done',
  'Gradual migration to the new backend; see the runbook before changing the rollout',
  'Operational toggle for verbose logging',
];
export const SEGMENTS = [
  'internal-users', 'beta-testers', 'checkout-eu', 'enterprise-tenants', 'mobile-early-access', 'us-east',
  'high-value-customers', 'qa-accounts', 'partners', 'eu-gdpr', 'new-signups', 'staff-devices',
];
const CONTEXT_FIELDS: ExportBody['contextFields'] = [
  { name: 'tenantId', description: 'Customer tenant', stickiness: true, sortOrder: 10, legalValues: [{ value: 'tenant-a', description: 'Acme' }, { value: 'tenant-b', description: 'Globex' }, { value: 'tenant-c', description: 'Initech' }] },
  { name: 'appVersion', description: 'Version of the client app', stickiness: false, sortOrder: 20, legalValues: [] },
  { name: 'accountAgeDays', description: 'Days since sign-up', stickiness: false, sortOrder: 30, legalValues: [] },
  { name: 'region', description: 'Data-centre region', stickiness: false, sortOrder: 40, legalValues: [{ value: 'eu-west-1' }, { value: 'us-east-1' }, { value: 'ap-south-1' }] },
  { name: 'email', description: 'Account e-mail address', stickiness: false, sortOrder: 50, legalValues: [] },
  { name: 'signupDate', description: 'When the account was created', stickiness: false, sortOrder: 60, legalValues: [] },
  { name: 'userId', description: 'Allows you to constrain on userId', stickiness: false, sortOrder: 1, legalValues: [] },
];
const TAG_TYPES: ExportBody['tagTypes'] = [
  { name: 'simple', description: 'Used to simplify filtering of features', icon: '#', color: null },
  { name: 'team', description: 'Owning team', icon: null, color: null },
  { name: 'jira', description: 'Jira issue', icon: null, color: null },
];
const VARIANT_NAMES = ['control', 'blue', 'green', 'red', 'compact', 'spacious', 'discount-10', 'discount-20'];
const DAY = 86_400_000;
/** Every date is measured from here, so nothing depends on the clock. */
const EPOCH = Date.UTC(2024, 0, 1);

// ---- The model --------------------------------------------------------------------------------------------------

interface EnvState {
  enabled: boolean;
  lastSeenAt: string | null;
  strategies: ExportStrategy[];
  variants: ExportEnvironmentVariant[];
}

interface Flag {
  name: string;
  project: string;
  type: string;
  description: string | null;
  stale: boolean;
  impressionData: boolean;
  createdAt: string;
  lastSeenAt: string | null;
  lifecycle: { stage: string; enteredStageAt: string };
  envs: EnvState[];
  tags: Array<{ type: string; value: string }>;
  parent?: { feature: string; enabled: boolean; variants: string[] };
  links: Array<{ id: string; url: string; title: string | null }>;
  isParent: boolean;
}

export interface Dataset {
  flags: number;
  seed: number;
  /** Search rows sorted by name (then project), as the server pages them with sortBy=name. */
  searchItems: SearchItem[];
  /** The export of every non-archived flag for one environment (`features: []`). */
  exportFor(environment: string): ExportBody;
  /** The export of the named flags only (unknown names are dropped, as the server does). */
  exportNamed(environment: string, names: readonly string[]): ExportBody;
}

export function generateDataset(flagCount: number, seed = 1): Dataset {
  const rnd = mulberry32(seed * 7919 + flagCount);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
  const weighted = (xs: Array<[string, number]>): string => {
    let r = rnd();
    for (const [value, weight] of xs) {
      if ((r -= weight) < 0) return value;
    }
    return xs[xs.length - 1]![0];
  };
  const chance = (p: number): boolean => rnd() < p;
  const int = (lo: number, hi: number): number => lo + Math.floor(rnd() * (hi - lo + 1));
  const iso = (ms: number): string => new Date(ms).toISOString();
  const hex = (n: number): string => {
    let s = '';
    for (let i = 0; i < n; i++) s += '0123456789abcdef'[Math.floor(rnd() * 16)];
    return s;
  };
  const uuid = (): string => `${hex(8)}-${hex(4)}-4${hex(3)}-${'89ab'[int(0, 3)]}${hex(3)}-${hex(12)}`;
  const ulid = (): string => {
    let s = '01J';
    for (let i = 0; i < 23; i++) s += '0123456789ABCDEFGHJKMNPQRSTVWXYZ'[Math.floor(rnd() * 32)];
    return s;
  };

  // Unique names: mostly kebab, some snake and dotted ones.
  const names = new Set<string>();
  let serial = 0;
  while (names.size < flagCount) {
    const r = rnd();
    let name: string;
    if (r < 0.7) name = `${pick(AREAS)}-${pick(FEATURES)}${pick(SUFFIXES)}`;
    else if (r < 0.85) name = `${pick(AREAS)}_${pick(FEATURES).replace(/-/g, '_')}`;
    else name = `${pick(TEAMS)}.${pick(AREAS)}.${pick(FEATURES)}`;
    if (names.has(name)) name = `${name}-${++serial}`;
    names.add(name);
  }

  /** A constraint with the keys in the order a real export has them. */
  const made = (operator: string, contextName: string, values: string[], value?: string, caseInsensitive = false): ExportConstraint => {
    const inverted = chance(0.1);
    return value === undefined
      ? { values, inverted, operator, contextName, caseInsensitive }
      : { value, values, inverted, operator, contextName, caseInsensitive };
  };
  const constraint = (): ExportConstraint => {
    switch (int(0, 9)) {
      case 0:
      case 1:
        return made(pick(['IN', 'NOT_IN']), 'tenantId', Array.from({ length: int(1, 6) }, () => `tenant-${hex(4)}`));
      case 2:
        return made('IN', 'region', ['eu-west-1', 'us-east-1', 'ap-south-1'].slice(0, int(1, 3)));
      case 3:
        return made(pick(['IN', 'NOT_IN']), 'userId', Array.from({ length: int(1, 8) }, () => String(int(1000, 999_999))));
      case 4:
        return made(pick(['STR_ENDS_WITH', 'STR_CONTAINS', 'STR_STARTS_WITH']), 'email', [pick(['@example.com', '@acme.test', '@globex.test'])], undefined, chance(0.5));
      case 5:
        return made(pick(['NUM_GT', 'NUM_GTE', 'NUM_LT', 'NUM_LTE', 'NUM_EQ']), 'accountAgeDays', [], String(int(1, 365)));
      case 6:
        return made(pick(['DATE_AFTER', 'DATE_BEFORE']), 'signupDate', [], iso(EPOCH + int(0, 900) * DAY));
      case 7:
      case 8:
        return made(pick(['SEMVER_GT', 'SEMVER_EQ', 'SEMVER_LT']), 'appVersion', [], `${int(1, 9)}.${int(0, 20)}.${int(0, 9)}`);
      default:
        return made('REGEX', 'email', [], '^[a-z0-9._%+-]+@(staff|qa)\\.example\\.com$');
    }
  };

  const strategyVariants = (): ExportStrategyVariant[] => {
    const count = pick([0, 1, 1, 2, 2, 3]);
    if (count === 0) return [];
    const chosen = [...VARIANT_NAMES].sort(() => rnd() - 0.5).slice(0, count);
    const weight = Math.floor(1000 / count);
    return chosen.map((name, i) => {
      const v: ExportStrategyVariant = { name, weight: i === 0 ? 1000 - weight * (count - 1) : weight, stickiness: 'default', weightType: 'variable' };
      if (chance(0.4)) {
        const payload = chance(0.5) ? { type: 'json', value: JSON.stringify({ color: name, size: int(1, 5) }) } : { type: 'string', value: name };
        return { name: v.name, weight: v.weight, payload, stickiness: v.stickiness, weightType: v.weightType };
      }
      return v;
    });
  };

  const strategy = (featureName: string): ExportStrategy => ({
    name: 'flexibleRollout',
    id: uuid(),
    featureName,
    title: chance(0.2) ? pick(['Internal users', 'Early adopters', 'EU rollout', 'Long-time customers', 'Staff']) : null,
    parameters: { groupId: featureName, rollout: String(pick([0, 5, 10, 25, 50, 75, 100, 100])), stickiness: pick(['default', 'default', 'userId', 'sessionId']) },
    constraints: Array.from({ length: int(1, 3) }, constraint),
    variants: strategyVariants(),
    disabled: chance(0.05),
    segments: chance(0.15) ? [...new Set(Array.from({ length: int(1, 2) }, () => int(1, SEGMENTS.length)))] : [],
  });

  const envVariants = (): ExportEnvironmentVariant[] =>
    chance(0.03)
      ? [
          { name: 'control', weight: 500, overrides: [], stickiness: 'default', weightType: 'variable' },
          { name: 'treatment', weight: 500, payload: { type: 'string', value: 'on' }, overrides: [{ values: ['tenant-a'], contextName: 'tenantId' }], stickiness: 'default', weightType: 'variable' },
        ]
      : [];

  const all: Flag[] = [];
  const byProject = new Map<string, Flag[]>();
  for (const name of names) {
    const created = EPOCH + int(0, 700) * DAY + int(0, DAY - 1);
    const seen = chance(0.6) ? iso(created + int(1, 120) * DAY) : null;
    const project = weighted(PROJECTS);
    const flag: Flag = {
      name,
      project,
      type: weighted(TYPES),
      description: chance(0.15) ? null : chance(0.1) ? '' : pick(DESCRIPTIONS),
      stale: chance(0.08),
      impressionData: chance(0.1),
      createdAt: iso(created),
      lastSeenAt: seen,
      lifecycle: { stage: pick(['initial', 'pre-live', 'live', 'live', 'completed']), enteredStageAt: iso(created + int(0, 30) * DAY) },
      envs: ENVIRONMENTS.map((env) => ({
        enabled: chance(env.name === 'development' ? 0.7 : 0.4),
        lastSeenAt: seen,
        strategies: env.name === 'production' && chance(0.2) ? [] : Array.from({ length: chance(0.5) ? 1 : 2 }, () => strategy(name)),
        variants: envVariants(),
      })),
      tags: [
        { type: 'team', value: pick(TEAMS) },
        ...(chance(0.2) ? [{ type: 'jira', value: `${pick(['PAY', 'GRO', 'PLAT', 'MOB'])}-${int(1, 9999)}` }] : []),
        ...(chance(0.1) ? [{ type: 'simple', value: pick(['beta', 'needs review', 'cleanup']) }] : []),
      ],
      links: chance(0.05)
        ? Array.from({ length: int(1, 2) }, (_, i) => ({
            id: ulid(),
            url: i === 0 ? `https://jira.example.com/browse/PAY-${int(1, 9999)}` : `https://wiki.example.com/flags/${encodeURIComponent(name)}`,
            title: i === 0 ? 'Jira issue' : null,
          }))
        : [],
      isParent: false,
    };
    // A few children of an earlier flag of the same project.
    const siblings = byProject.get(project) ?? [];
    if (siblings.length > 5 && chance(0.03)) {
      const parent = pick(siblings);
      parent.isParent = true;
      const parentVariants = parent.envs[0]!.strategies.flatMap((s) => s.variants.map((v) => v.name));
      flag.parent = { feature: parent.name, enabled: chance(0.9), variants: parentVariants.length && chance(0.3) ? [parentVariants[0]!] : [] };
    }
    siblings.push(flag);
    byProject.set(project, siblings);
    all.push(flag);
  }

  const sorted = [...all].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.project < b.project ? -1 : 1));
  const searchItems = sorted.map((flag): SearchItem => {
    const segmentIds = new Set(flag.envs.flatMap((env) => env.strategies.flatMap((s) => s.segments)));
    return {
      type: flag.type,
      description: flag.description,
      favorite: false,
      name: flag.name,
      project: flag.project,
      createdAt: flag.createdAt,
      stale: flag.stale,
      impressionData: flag.impressionData,
      lastSeenAt: flag.lastSeenAt,
      archivedAt: null,
      dependencyType: flag.parent ? 'child' : flag.isParent ? 'parent' : null,
      environments: ENVIRONMENTS.map((env, i) => {
        const state = flag.envs[i]!;
        return {
          name: env.name,
          enabled: state.enabled,
          type: env.type,
          sortOrder: env.sortOrder,
          variantCount: state.variants.length,
          lastSeenAt: state.lastSeenAt,
          hasStrategies: state.strategies.length > 0,
          hasEnabledStrategies: state.strategies.some((s) => !s.disabled),
        };
      }),
      segments: [...segmentIds].sort((a, b) => a - b).map((id) => SEGMENTS[id - 1]!),
      tags: flag.tags.map((t) => ({ value: t.value, type: t.type })),
      lifecycle: flag.lifecycle,
    };
  });

  // The server's strategy order is undefined: a fixed shuffle of the creation order.
  const strategyOrder = all.map((_, i) => i);
  for (let i = strategyOrder.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [strategyOrder[i], strategyOrder[j]] = [strategyOrder[j]!, strategyOrder[i]!];
  }

  const exportOf = (environment: string, chosen: Flag[]): ExportBody => {
    const envIndex = ENVIRONMENTS.findIndex((env) => env.name === environment);
    const included = new Set(chosen.map((flag) => flag.name));
    const inOrder = strategyOrder.map((i) => all[i]!).filter((flag) => included.has(flag.name));
    const strategies = envIndex < 0 ? [] : inOrder.flatMap((flag) => flag.envs[envIndex]!.strategies);
    const usedContext = new Set(strategies.flatMap((s) => s.constraints.map((c) => c.contextName)));
    const usedSegments = new Set(strategies.flatMap((s) => s.segments));
    const featureTags = chosen.flatMap((flag) => flag.tags.map((t) => ({ featureName: flag.name, tagType: t.type, tagValue: t.value })));
    const usedTagTypes = new Set(featureTags.map((t) => t.tagType));
    const byName = [...chosen].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return {
      features: byName.map((f) => ({ name: f.name, description: f.description, type: f.type, project: f.project, stale: f.stale, impressionData: f.impressionData, archived: false })),
      featureStrategies: strategies,
      featureEnvironments:
        envIndex < 0
          ? []
          : byName.map((f) => ({ enabled: f.envs[envIndex]!.enabled, featureName: f.name, environment, variants: f.envs[envIndex]!.variants, name: f.name })),
      contextFields: CONTEXT_FIELDS.filter((c) => usedContext.has(c.name)),
      featureTags,
      segments: [...usedSegments].sort((a, b) => a - b).map((id) => ({ id, name: SEGMENTS[id - 1]! })),
      tagTypes: TAG_TYPES.filter((t) => usedTagTypes.has(t.name)),
      dependencies: byName.filter((f) => f.parent).map((f) => ({ feature: f.name, dependencies: [f.parent!] })),
      links: byName.filter((f) => f.links.length).map((f) => ({ feature: f.name, links: f.links })),
    };
  };

  const byFlagName = new Map(all.map((flag) => [flag.name, flag]));
  return {
    flags: flagCount,
    seed,
    searchItems,
    exportFor: (environment) => exportOf(environment, all),
    exportNamed: (environment, wanted) => exportOf(environment, wanted.flatMap((n) => byFlagName.get(n) ?? [])),
  };
}
