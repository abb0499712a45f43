/**
 * SEED: a typed description of everything seed.ts creates in the real Unleash server.
 * Contract tests assert against this; seed.ts creates exactly this (and verifySeed checks it).
 * Server-generated ids (strategy ids, segment ids, link ids, token secrets) are not in here:
 * startRealUnleash() returns them in `seeded`.
 */

export type EnvironmentName = 'development' | 'production';
export type FlagType = 'release' | 'experiment' | 'kill-switch' | 'operational' | 'permission';
export type StrategyName = 'flexibleRollout' | 'default' | 'remoteAddress' | 'applicationHostname';
/** The 16 operators Unleash 7.5.1 accepts (SEMVER_GTE/SEMVER_LTE are rejected with 400). */
export type ConstraintOperator =
  | 'IN'
  | 'NOT_IN'
  | 'STR_ENDS_WITH'
  | 'STR_STARTS_WITH'
  | 'STR_CONTAINS'
  | 'NUM_EQ'
  | 'NUM_GT'
  | 'NUM_GTE'
  | 'NUM_LT'
  | 'NUM_LTE'
  | 'DATE_AFTER'
  | 'DATE_BEFORE'
  | 'SEMVER_EQ'
  | 'SEMVER_GT'
  | 'SEMVER_LT'
  | 'REGEX';
type PayloadType = 'json' | 'csv' | 'string' | 'number';
export type SegmentName = 'internal-users' | 'beta-testers' | 'checkout-eu';
export type ProjectId = 'default' | 'checkout';

/**
 * A constraint exactly as the seed sends it. Multi-value operators (IN, NOT_IN, STR_*) use
 * `values`; single-value operators (NUM_*, DATE_*, SEMVER_*, REGEX) use `value`.
 * The server echoes it back as sent, plus `values: []` on single-value ones (constraintAsReturned).
 */
export interface SeedConstraint {
  contextName: string;
  operator: ConstraintOperator;
  values?: readonly string[];
  value?: string;
  caseInsensitive?: boolean;
  inverted?: boolean;
}

interface SeedPayload {
  type: PayloadType;
  value: string;
}

/** A strategy-level variant. */
export interface SeedStrategyVariant {
  name: string;
  weight: number;
  weightType: 'variable' | 'fix';
  stickiness: string;
  payload?: SeedPayload;
}

/** A feature-level ("environment") variant, the legacy kind. */
interface SeedEnvironmentVariant {
  name: string;
  weight: number;
  weightType: 'variable' | 'fix';
  stickiness: string;
  payload?: SeedPayload;
  overrides?: readonly { contextName: string; values: readonly string[] }[];
}

export interface SeedStrategy {
  /** A stable handle for tests (not an Unleash field): look up the server id in `seeded.strategyIds[key]`. */
  key: string;
  name: StrategyName;
  /** Absent = no title sent; the server then reports `title: null`. */
  title?: string;
  disabled: boolean;
  /** Sent explicitly as the index in the environment's list. */
  sortOrder: number;
  parameters: Readonly<Record<string, string>>;
  constraints: readonly SeedConstraint[];
  variants: readonly SeedStrategyVariant[];
  segments: readonly SegmentName[];
}

export interface SeedFlagEnvironment {
  enabled: boolean;
  strategies: readonly SeedStrategy[];
  /** Feature-level variants of this environment (legacy; needs UNLEASH_EXPERIMENTAL_ENABLE_LEGACY_VARIANTS). */
  variants: readonly SeedEnvironmentVariant[];
}

export interface SeedTag {
  type: string;
  value: string;
}

export interface SeedLink {
  url: string;
  title: string;
}

export interface SeedParentDependency {
  feature: string;
  enabled: boolean;
  variants: readonly string[];
}

export interface SeedFlag {
  name: string;
  project: ProjectId;
  type: FlagType;
  description: string;
  impressionData: boolean;
  /** Archived at the end of the seed (after everything else was set up). */
  archived: boolean;
  tags: readonly SeedTag[];
  /** The state set up by the seed (for an archived flag: the state before it was archived). */
  environments: Readonly<Record<EnvironmentName, SeedFlagEnvironment>>;
  /** Environments where `enabled` is true, in the order development, production. */
  enabledIn: readonly EnvironmentName[];
  /** Parents of this flag (only new-checkout-flow-ui has one). */
  dependencies: readonly SeedParentDependency[];
  children: readonly string[];
  links: readonly SeedLink[];
}

interface SeedProject {
  id: ProjectId;
  name: string;
  description: string;
  /** `builtin`: exists on every server. `sql`: OSS has no create-project endpoint, so it is INSERTed. */
  createdVia: 'builtin' | 'sql';
}

interface SeedContextField {
  name: string;
  description: string;
  stickiness: boolean;
  sortOrder: number;
  legalValues: readonly { value: string; description?: string }[];
}

interface SeedTagType {
  name: string;
  description: string;
  /** `builtin`: `simple` exists on every server. */
  createdVia: 'builtin' | 'api';
}

interface SeedSegment {
  name: SegmentName;
  description: string;
  /** Absent = global segment (the server then sends no `project` key at all). */
  project?: ProjectId;
  constraints: readonly SeedConstraint[];
}

export interface SeedApiToken {
  tokenName: string;
  type: 'backend' | 'frontend';
  environment: EnvironmentName;
  projects: readonly string[];
}

interface SeedDescription {
  environments: readonly EnvironmentName[];
  projects: readonly SeedProject[];
  contextFields: readonly SeedContextField[];
  tagTypes: readonly SeedTagType[];
  /** Every tag that exists after the seed (including jira:unused-tag, which no flag carries). */
  tags: readonly SeedTag[];
  segments: readonly SeedSegment[];
  flags: readonly SeedFlag[];
  /** The one dependency: child → parent. */
  dependency: { child: string; parent: string; enabled: boolean; variants: readonly string[] };
  archivedFlags: readonly string[];
  /** Marked completed (lifecycle) with this outcome, after everything else of the flag was set up. */
  completed: { flag: string; project: ProjectId; status: 'kept' | 'discarded' };
  apiTokens: { backend: SeedApiToken; frontend: SeedApiToken };
  admin: { username: 'admin'; tokenName: 'admin' };
}

// ---------------------------------------------------------------------------------------------

const TAG = {
  payments: { type: 'team', value: 'payments' },
  growth: { type: 'team', value: 'growth' },
  beta: { type: 'simple', value: 'beta' },
  needsReview: { type: 'simple', value: 'needs review' },
  pay123: { type: 'jira', value: 'PAY-123' },
  unused: { type: 'jira', value: 'unused-tag' },
  /** A value with a space at each end: Unleash keeps them, so `simple:legacy` is another tag (which does not exist). */
  legacy: { type: 'simple', value: ' legacy ' },
} as const satisfies Record<string, SeedTag>;

type FlagInput = Omit<SeedFlag, 'enabledIn' | 'children' | 'environments' | 'dependencies' | 'links' | 'tags' | 'archived' | 'impressionData'> & {
  impressionData?: boolean;
  archived?: boolean;
  tags?: readonly SeedTag[];
  dependencies?: readonly SeedParentDependency[];
  links?: readonly SeedLink[];
  development?: EnvInput;
  production?: EnvInput;
};
type StrategyInput = Omit<SeedStrategy, 'sortOrder' | 'disabled' | 'constraints' | 'variants' | 'segments' | 'parameters'> & {
  disabled?: boolean;
  parameters?: Readonly<Record<string, string>>;
  constraints?: readonly SeedConstraint[];
  variants?: readonly SeedStrategyVariant[];
  segments?: readonly SegmentName[];
};
interface EnvInput {
  enabled: boolean;
  strategies?: readonly StrategyInput[];
  variants?: readonly SeedEnvironmentVariant[];
}

function env(input: EnvInput | undefined): SeedFlagEnvironment {
  return {
    enabled: input?.enabled ?? false,
    strategies: (input?.strategies ?? []).map((s, i) => ({
      disabled: false,
      parameters: {},
      constraints: [],
      variants: [],
      segments: [],
      ...s,
      sortOrder: i,
    })),
    variants: input?.variants ?? [],
  };
}

function flag(input: FlagInput): SeedFlag {
  const { development, production, ...rest } = input;
  const environments = { development: env(development), production: env(production) };
  return {
    impressionData: false,
    archived: false,
    tags: [],
    dependencies: [],
    links: [],
    ...rest,
    environments,
    enabledIn: (['development', 'production'] as const).filter((e) => environments[e].enabled),
    children: [],
  };
}

const rollout = (percent: number, stickiness: string, groupId: string): Record<string, string> => ({
  rollout: String(percent),
  stickiness,
  groupId,
});

const flagsWithoutChildren: SeedFlag[] = [
  // ----- project default -----
  flag({
    name: 'new-checkout-flow',
    project: 'default',
    type: 'release',
    description: 'New one-page checkout flow',
    impressionData: true,
    tags: [TAG.payments, TAG.pay123],
    links: [{ url: 'https://example.com/jira/browse/PAY-123', title: 'PAY-123: new checkout' }],
    development: {
      enabled: true,
      strategies: [
        {
          key: 'new-checkout-flow/development/internal-and-beta',
          name: 'flexibleRollout',
          title: 'Internal and beta users',
          parameters: rollout(50, 'userId', 'new-checkout-flow'),
          constraints: [
            { contextName: 'tenantId', operator: 'IN', values: ['acme', 'globex'] },
            { contextName: 'userId', operator: 'NOT_IN', values: ['blocked-user-1', 'blocked-user-2'] },
          ],
          variants: [
            { name: 'blue', weight: 500, weightType: 'variable', stickiness: 'userId', payload: { type: 'json', value: '{"color":"blue","rounded":true}' } },
            { name: 'green', weight: 500, weightType: 'variable', stickiness: 'userId', payload: { type: 'csv', value: 'green,#00ff00,1' } },
          ],
          segments: ['internal-users', 'beta-testers'],
        },
        { key: 'new-checkout-flow/development/everyone', name: 'default' },
      ],
    },
    production: {
      enabled: false,
      strategies: [
        {
          key: 'new-checkout-flow/production/staff',
          name: 'flexibleRollout',
          title: 'Staff e-mail addresses',
          parameters: rollout(10, 'default', 'new-checkout-flow'),
          constraints: [
            { contextName: 'userId', operator: 'STR_ENDS_WITH', values: ['@Example.com'], caseInsensitive: true },
            { contextName: 'userId', operator: 'STR_CONTAINS', values: ['test'], inverted: true },
            { contextName: 'appName', operator: 'STR_STARTS_WITH', values: ['checkout-'] },
          ],
        },
      ],
    },
  }),
  flag({
    name: 'new-checkout-flow-ui',
    project: 'default',
    type: 'release',
    description: 'UI of the new checkout flow',
    tags: [TAG.beta],
    dependencies: [{ feature: 'new-checkout-flow', enabled: true, variants: ['blue'] }],
    development: {
      enabled: true,
      strategies: [{ key: 'new-checkout-flow-ui/development/all', name: 'flexibleRollout', parameters: rollout(100, 'default', 'new-checkout-flow-ui') }],
    },
    production: { enabled: false },
  }),
  flag({
    name: 'pricing-experiment',
    project: 'default',
    type: 'experiment',
    description: 'A/B test of the new price points',
    tags: [TAG.growth, TAG.needsReview],
    development: {
      enabled: true,
      strategies: [
        {
          key: 'pricing-experiment/development/established-accounts',
          name: 'flexibleRollout',
          title: 'Accounts older than a week',
          parameters: rollout(100, 'tenantId', 'pricing-experiment'),
          constraints: [
            { contextName: 'accountAgeDays', operator: 'NUM_GT', value: '7' },
            { contextName: 'accountAgeDays', operator: 'NUM_LTE', value: '3650' },
          ],
          variants: [
            { name: 'price-a', weight: 300, weightType: 'fix', stickiness: 'tenantId', payload: { type: 'number', value: '9.99' } },
            { name: 'price-b', weight: 700, weightType: 'variable', stickiness: 'tenantId', payload: { type: 'string', value: 'nine-ninety-nine' } },
          ],
        },
        {
          key: 'pricing-experiment/development/thirty-days',
          name: 'flexibleRollout',
          parameters: rollout(100, 'default', 'pricing-experiment'),
          constraints: [{ contextName: 'accountAgeDays', operator: 'NUM_EQ', value: '30' }],
        },
      ],
      variants: [
        { name: 'control', weight: 500, weightType: 'variable', stickiness: 'default', payload: { type: 'string', value: 'control' } },
        {
          name: 'treatment',
          weight: 500,
          weightType: 'variable',
          stickiness: 'default',
          payload: { type: 'json', value: '{"price":9.99}' },
          overrides: [{ contextName: 'userId', values: ['qa-user-1'] }],
        },
      ],
    },
    production: {
      enabled: true,
      strategies: [
        {
          key: 'pricing-experiment/production/campaign-window',
          name: 'flexibleRollout',
          title: 'Campaign window',
          parameters: rollout(20, 'default', 'pricing-experiment'),
          constraints: [
            { contextName: 'accountAgeDays', operator: 'NUM_GTE', value: '30' },
            { contextName: 'accountAgeDays', operator: 'NUM_LT', value: '365' },
            { contextName: 'currentTime', operator: 'DATE_AFTER', value: '2024-01-01T00:00:00.000Z' },
            { contextName: 'currentTime', operator: 'DATE_BEFORE', value: '2030-12-31T23:59:59.000Z' },
          ],
        },
      ],
      variants: [{ name: 'control', weight: 1000, weightType: 'variable', stickiness: 'default', payload: { type: 'string', value: 'control' } }],
    },
  }),
  flag({
    name: 'maintenance-mode',
    project: 'default',
    type: 'kill-switch',
    description: 'Shows the maintenance page',
    development: { enabled: false },
    production: {
      enabled: true,
      strategies: [
        { key: 'maintenance-mode/production/office', name: 'remoteAddress', title: 'Office network', parameters: { IPs: '10.0.0.0/8,192.168.1.10' } },
      ],
    },
  }),
  flag({
    name: 'ops-log-level',
    project: 'default',
    type: 'operational',
    description: 'Verbose logging on selected hosts',
    tags: [TAG.legacy],
    development: {
      enabled: true,
      strategies: [
        { key: 'ops-log-level/development/build-agents', name: 'applicationHostname', title: 'Build agents', parameters: { hostNames: 'build-agent-1,build-agent-2' } },
        {
          key: 'ops-log-level/development/checkout-apps',
          name: 'flexibleRollout',
          parameters: rollout(100, 'default', 'ops-log-level'),
          constraints: [{ contextName: 'appName', operator: 'REGEX', value: '^checkout-(api|worker)$', caseInsensitive: true }],
        },
      ],
    },
    production: {
      enabled: false,
      strategies: [{ key: 'ops-log-level/production/debug-host', name: 'applicationHostname', parameters: { hostNames: 'prod-debug-1' } }],
    },
  }),
  flag({
    name: 'admin-panel',
    project: 'default',
    type: 'permission',
    description: 'Access to the admin panel',
    development: {
      enabled: true,
      strategies: [
        {
          key: 'admin-panel/development/v3',
          name: 'flexibleRollout',
          title: 'Version 3.0.0 only',
          parameters: rollout(100, 'default', 'admin-panel'),
          constraints: [{ contextName: 'appVersion', operator: 'SEMVER_EQ', value: '3.0.0' }],
        },
      ],
    },
    production: {
      enabled: true,
      strategies: [
        {
          key: 'admin-panel/production/supported-versions',
          name: 'flexibleRollout',
          parameters: rollout(100, 'default', 'admin-panel'),
          constraints: [
            { contextName: 'appVersion', operator: 'SEMVER_GT', value: '2.5.0' },
            { contextName: 'appVersion', operator: 'SEMVER_LT', value: '4.0.0-beta.1' },
          ],
        },
        {
          key: 'admin-panel/production/paused',
          name: 'flexibleRollout',
          title: 'Paused: everyone',
          disabled: true,
          parameters: rollout(100, 'default', 'admin-panel'),
        },
      ],
    },
  }),
  flag({
    name: 'old-banner',
    project: 'default',
    type: 'release',
    description: 'Banner of the spring campaign',
    tags: [TAG.growth],
    archived: true,
    development: { enabled: true, strategies: [{ key: 'old-banner/development/everyone', name: 'default' }] },
    production: { enabled: false },
  }),
  // ----- project checkout -----
  flag({
    name: 'checkout-express-pay',
    project: 'checkout',
    type: 'release',
    description: 'One-click express payment',
    tags: [TAG.payments, TAG.pay123],
    development: {
      enabled: true,
      strategies: [
        {
          key: 'checkout-express-pay/development/acme',
          name: 'flexibleRollout',
          parameters: rollout(100, 'default', 'checkout-express-pay'),
          constraints: [{ contextName: 'tenantId', operator: 'IN', values: ['acme'] }],
        },
      ],
    },
    production: {
      enabled: true,
      strategies: [
        {
          key: 'checkout-express-pay/production/eu',
          name: 'flexibleRollout',
          title: 'EU rollout',
          parameters: rollout(25, 'default', 'checkout-express-pay'),
          segments: ['checkout-eu'],
        },
      ],
      variants: [
        { name: 'apple-pay', weight: 500, weightType: 'variable', stickiness: 'default', payload: { type: 'string', value: 'apple' } },
        { name: 'google-pay', weight: 500, weightType: 'variable', stickiness: 'default' },
      ],
    },
  }),
  flag({
    name: 'checkout-fraud-check',
    project: 'checkout',
    type: 'operational',
    description: 'Extra fraud screening for risky orders',
    tags: [TAG.payments],
    development: { enabled: false, strategies: [{ key: 'checkout-fraud-check/development/everyone', name: 'default' }] },
    production: {
      enabled: true,
      strategies: [{ key: 'checkout-fraud-check/production/everyone', name: 'default', title: 'Everyone' }],
    },
  }),
];

// Children follow from the dependencies.
for (const child of flagsWithoutChildren)
  for (const dep of child.dependencies)
    if (!flagsWithoutChildren.some((f) => f.name === dep.feature)) throw new Error(`seed-data: unknown parent ${dep.feature}`);
const flags: SeedFlag[] = flagsWithoutChildren.map((f) => ({
  ...f,
  children: flagsWithoutChildren.filter((c) => c.dependencies.some((d) => d.feature === f.name)).map((c) => c.name),
}));

export const SEED: SeedDescription = {
  environments: ['development', 'production'],
  projects: [
    { id: 'default', name: 'Default', description: 'Default project', createdVia: 'builtin' },
    { id: 'checkout', name: 'Checkout', description: 'Checkout and payment flags', createdVia: 'sql' },
  ],
  contextFields: [
    {
      name: 'tenantId',
      description: 'Customer tenant',
      stickiness: true,
      sortOrder: 10,
      legalValues: [
        { value: 'acme', description: 'Acme Corp' },
        { value: 'globex', description: 'Globex Corporation' },
        { value: 'initech' },
      ],
    },
    { name: 'appVersion', description: 'Semantic version of the calling app', stickiness: false, sortOrder: 11, legalValues: [] },
    { name: 'accountAgeDays', description: 'Days since the account was created', stickiness: false, sortOrder: 12, legalValues: [] },
  ],
  tagTypes: [
    { name: 'simple', description: 'Used to simplify filtering of features', createdVia: 'builtin' },
    { name: 'team', description: 'Team that owns the flag', createdVia: 'api' },
    { name: 'jira', description: 'Jira issue key', createdVia: 'api' },
  ],
  tags: [TAG.payments, TAG.growth, TAG.beta, TAG.needsReview, TAG.pay123, TAG.unused, TAG.legacy],
  segments: [
    {
      name: 'internal-users',
      description: 'Employees',
      constraints: [{ contextName: 'userId', operator: 'STR_ENDS_WITH', values: ['@example.com'], caseInsensitive: true }],
    },
    {
      name: 'beta-testers',
      description: 'Tenants in the beta programme',
      constraints: [
        { contextName: 'tenantId', operator: 'IN', values: ['acme', 'initech'] },
        { contextName: 'appVersion', operator: 'SEMVER_GT', value: '2.0.0' },
      ],
    },
    {
      name: 'checkout-eu',
      description: 'Shoppers in the EU',
      project: 'checkout',
      // `country` is not a defined context field: Unleash accepts constraints on unknown fields.
      constraints: [{ contextName: 'country', operator: 'IN', values: ['DE', 'FR', 'NL'] }],
    },
  ],
  flags,
  dependency: { child: 'new-checkout-flow-ui', parent: 'new-checkout-flow', enabled: true, variants: ['blue'] },
  archivedFlags: flags.filter((f) => f.archived).map((f) => f.name),
  completed: { flag: 'ops-log-level', project: 'default', status: 'kept' },
  apiTokens: {
    backend: { tokenName: 'contract-backend', type: 'backend', environment: 'development', projects: ['*'] },
    frontend: { tokenName: 'contract-frontend', type: 'frontend', environment: 'development', projects: ['*'] },
  },
  admin: { username: 'admin', tokenName: 'admin' },
};

// ------------------------------------------------------------------ lookups for tests

export function seedFlag(name: string): SeedFlag {
  const f = SEED.flags.find((x) => x.name === name);
  if (!f) throw new Error(`no seeded flag named ${name}`);
  return f;
}

interface SeedStrategyRef {
  flag: SeedFlag;
  environment: EnvironmentName;
  strategy: SeedStrategy;
}

/** Every seeded strategy with its flag and environment. */
export function seedStrategies(): SeedStrategyRef[] {
  const out: SeedStrategyRef[] = [];
  for (const f of SEED.flags)
    for (const e of SEED.environments) for (const s of f.environments[e].strategies) out.push({ flag: f, environment: e, strategy: s });
  return out;
}

export function seedStrategy(key: string): SeedStrategyRef {
  const s = seedStrategies().find((x) => x.strategy.key === key);
  if (!s) throw new Error(`no seeded strategy with key ${key}`);
  return s;
}

/** Seeded flags carrying tag `type:value`. */
export function seedFlagsTagged(type: string, value: string): SeedFlag[] {
  return SEED.flags.filter((f) => f.tags.some((t) => t.type === type && t.value === value));
}

/**
 * A constraint as 7.5.1 returns it: stored as sent, except that a constraint sent with only
 * `value` comes back with `values: []` added. `caseInsensitive`/`inverted` are NOT filled in
 * when they were not sent.
 */
export function constraintAsReturned(c: SeedConstraint): SeedConstraint {
  return c.value !== undefined && c.values === undefined ? { ...c, values: [] } : { ...c };
}
