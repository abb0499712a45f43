/**
 * The Flags tree against a real Unleash (7.5.1 or 8.2.0, see env.ts) seeded with tools/unleash/seed-data.ts, expanded as a user
 * would: root → project → new-checkout-flow → development → its gradual rollout → constraints, parameters,
 * variants, segments → internal-users → its constraint. Uses the server of UNLEASH_CONTRACT_URL and
 * UNLEASH_CONTRACT_TOKEN when set, else starts one (see env.ts).
 *   node --import tsx --test test/contract/tree.contract.test.ts
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { UnleashClient } from '../../src/api/client';
import { FlagStore } from '../../src/model/store/flagStore';
import { escapeMarkdown } from '../../src/model/text/markdown';
import { flagDocument } from '../../src/model/content/flagDocument';
import { hoverMarkdown } from '../../src/model/content/hoverContent';
import { childrenOf } from '../../src/model/tree/children';
import { viewDescription, viewMessage } from '../../src/model/tree/commandData';
import type { TreeNode } from '../../src/model/tree/node';
import { rootNodes } from '../../src/model/tree/root';
import { parseIsoUtc, utcDate } from '../../src/model/text/plainText';
import { ServerSource } from '../../src/services/serverSource';
import { useRealUnleash } from './env';
import { SEED, STRATEGY_ID_PATTERN, seedFlag, seedStrategy, type SeedConstraint } from '../../tools/unleash';

const unleash = useRealUnleash();
const clients: UnleashClient[] = [];

after(async () => {
  await Promise.all(clients.map((client) => client.close()));
});

/** A store over the real server, as the extension builds it (all projects, no web URL setting). */
async function realStore(): Promise<{ store: FlagStore; source: ServerSource; requests: string[] }> {
  const requests: string[] = [];
  const client = new UnleashClient({
    baseUrl: unleash.current.url,
    getToken: () => unleash.current.adminToken,
    onEvent: (event) => {
      // The stage lists the store reads after each listing (status.contract.test.ts checks them) are not counted here.
      if (event.kind === 'response' && !event.request.endsWith('/lifecycle')) requests.push(event.request);
    },
  });
  clients.push(client);
  const source = new ServerSource(client, [], '');
  const store = new FlagStore({ info() {}, error() {} });
  void store.load(); // needed from the start: setSource reads the list
  await store.setSource(source, 'ready');
  assert.equal(store.state, 'ready', `the store did not load: ${String(store.error)}`);
  await store.stagesSettled();
  return { store, source, requests };
}

const expand = (node: TreeNode | undefined, store: FlagStore) => childrenOf(node, store);

function byLabel(nodes: TreeNode[], label: string): TreeNode {
  const node = nodes.find((candidate) => candidate.label === label);
  assert.ok(node, `no row "${label}" among ${JSON.stringify(nodes.map((n) => n.label))}`);
  return node;
}

const row = (node: TreeNode) => ({
  label: node.label,
  description: node.description,
  tooltip: node.tooltip,
  contextValue: node.contextValue,
  collapsible: node.collapsible,
});

/** A flag's lifecycle as the listing gives it: `initial`, and the UTC date it entered that stage. */
function lifecycleOf(store: FlagStore, project: string, name: string): { stage: string; since: string } {
  const lifecycle = store.catalog.get(project, name)?.lifecycle;
  assert.ok(lifecycle, `no lifecycle for ${name}`);
  const ms = parseIsoUtc(lifecycle.enteredStageAt);
  assert.ok(ms !== undefined, `lifecycle date ${lifecycle.enteredStageAt}`);
  return { stage: lifecycle.stage, since: utcDate(ms) };
}

/** The words of the seed's constraints, for the operators the walk meets. */
function worded(constraint: SeedConstraint): string {
  const values = (constraint.values ?? []).join(', ');
  const suffix = constraint.caseInsensitive ? ' (case-insensitive)' : '';
  switch (constraint.operator) {
    case 'IN':
      return `${constraint.contextName} is one of ${values}${suffix}`;
    case 'NOT_IN':
      return `${constraint.contextName} is not one of ${values}${suffix}`;
    case 'STR_ENDS_WITH':
      return `${constraint.contextName} ${constraint.inverted ? 'does not end with' : 'ends with'} ${values}${suffix}`;
    case 'SEMVER_GT':
      return `${constraint.contextName} is a SemVer greater than ${constraint.value}`;
    default:
      throw new Error(`the walk does not expect ${constraint.operator}`);
  }
}

describe('the Flags tree against a real Unleash', () => {
  it('walks from the root to a segment constraint, with the texts the seed implies', async (t) => {
    const { store, source, requests } = await realStore();
    const flag = seedFlag('new-checkout-flow');
    const strategySeed = seedStrategy('new-checkout-flow/development/internal-and-beta').strategy;
    const live = SEED.flags.filter((candidate) => !candidate.archived);

    let projectRows: TreeNode[] = [];
    let flagNode: TreeNode | undefined;
    let development: TreeNode | undefined;
    let strategy: TreeNode | undefined;
    let inside: TreeNode[] = [];

    await t.test('view: the host as description, no message', () => {
      assert.equal(viewDescription(store), source.label);
      assert.equal(viewDescription(store), new URL(unleash.current.url).host);
      assert.equal(viewMessage(store), undefined);
    });

    await t.test('root: one row per project (the seed has two), sorted, counting its live flags', async () => {
      projectRows = await expand(undefined, store);
      const projects = [...new Set(live.map((candidate) => candidate.project))].sort();
      assert.deepEqual(
        projectRows.map((node) => [node.label, node.description, node.contextValue]),
        projects.map((project) => {
          const count = live.filter((candidate) => candidate.project === project).length;
          return [project, `${count} flag${count === 1 ? '' : 's'}`, 'project'];
        }),
      );
      assert.deepEqual(projects, ['checkout', 'default']);
      assert.equal(
        requests.filter((request) => /\/projects\/[^/]+\/features\//.test(request)).length,
        0,
        'the root read a flag',
      );
    });

    await t.test('project default: its flags sorted by name, the archived one left out', async () => {
      const rows = await expand(byLabel(projectRows, flag.project), store);
      assert.deepEqual(
        rows.map((node) => node.label),
        live.filter((candidate) => candidate.project === 'default').map((candidate) => candidate.name).sort(),
      );
      assert.ok(!rows.some((node) => node.label === SEED.archivedFlags[0]));
      flagNode = byLabel(rows, flag.name);
      const { stage, since } = lifecycleOf(store, flag.project, flag.name);
      assert.deepEqual(row(flagNode), {
        label: 'new-checkout-flow',
        description: `d● p○ · ${stage}`,
        tooltip: [
          '**new\\-checkout\\-flow**',
          escapeMarkdown(flag.description),
          'Project: default · Type: release',
          `Environments: ${escapeMarkdown('development ● enabled, production ○ disabled')}`,
          `Lifecycle: ${escapeMarkdown(`${stage} since ${since}`)}`,
        ].join('\n\n'),
        contextValue: 'feature:enabled:web',
        collapsible: 'collapsed',
      });
      assert.equal(flagNode.icon?.id, 'rocket');
      assert.equal(source.webUrl('default', flag.name), `${unleash.current.url}/projects/default/features/new-checkout-flow`);
      assert.deepEqual(flag.enabledIn, ['development']);
    });

    await t.test('the flag: environments, tags, child, lifecycle and link, read with one request', async () => {
      assert.ok(flagNode);
      const before = requests.length;
      const rows = await expand(flagNode, store);
      assert.deepEqual(requests.slice(before), ['GET /api/admin/projects/default/features/new-checkout-flow']);
      const { stage, since } = lifecycleOf(store, flag.project, flag.name);
      assert.equal(flag.environments.development.strategies.length, 2);
      assert.equal(flag.environments.production.strategies.length, 1);
      const link = flag.links[0];
      assert.ok(link);
      assert.deepEqual(
        rows.map((node) => [node.kind, node.label, node.description ?? '']),
        [
          ['environment', 'development', 'enabled · 2 strategies · never seen'],
          ['environment', 'production', 'disabled · 1 strategy · never seen'],
          ['group', 'Tags', `${flag.tags.length} tags`],
          ['child', flag.children[0], 'depends on this flag'],
          ['lifecycle', 'Lifecycle', `${stage} since ${since}`],
          ['link', link.title, link.url],
        ],
      );
      assert.equal(byLabel(rows, 'Tags').tooltip, '**Tags**\n\n2 tags');
      const tags = await expand(byLabel(rows, 'Tags'), store);
      assert.deepEqual(
        tags.map((node) => [node.label, node.description]).sort(),
        flag.tags.map((tag) => [`${tag.type}:${tag.value}`, undefined]).sort(),
      );
      const linkRow = byLabel(rows, link.title);
      assert.equal(linkRow.url, link.url);
      assert.equal(linkRow.contextValue, 'link:web');
      assert.equal(
        linkRow.tooltip,
        `**${escapeMarkdown(link.title)}**\n\n[${escapeMarkdown(link.url)}](<${link.url}>)`,
      );
      assert.deepEqual(byLabel(rows, 'new-checkout-flow-ui').target, { project: 'default', name: 'new-checkout-flow-ui' });
      development = byLabel(rows, 'development');
      assert.deepEqual(row(development), {
        label: 'development',
        description: 'enabled · 2 strategies · never seen',
        tooltip: '**development** · enabled\n\nEnvironment type: development · 2 strategies · never seen',
        contextValue: 'environment:enabled',
        collapsible: 'collapsed',
      });
    });

    await t.test('development: its strategies in order, titled one first', async () => {
      assert.ok(development);
      const rows = await expand(development, store);
      assert.deepEqual(
        rows.map((node) => [node.label, node.description ?? '', node.contextValue]),
        [
          [strategySeed.title, 'Gradual rollout: 50% of userId · 2 constraints · 2 segments · 2 variants', 'strategy'],
          ['Standard: on for everyone', '', 'strategy'],
        ],
      );
      strategy = rows[0];
      assert.ok(strategy);
      assert.equal(
        strategy.tooltip,
        '**Internal and beta users**\n\nGradual rollout\\: 50\\% of userId\n\n2 constraints · 2 segments · 2 variants',
      );
      assert.match(strategy.id, new RegExp(`/env:development/strategy:${STRATEGY_ID_PATTERN[unleash.current.version]}$`));
      assert.equal(strategy.icon?.id, 'percentage');
    });

    await t.test('the strategy: constraints worded, then parameters, variants and segments', async () => {
      assert.ok(strategy);
      const before = requests.length;
      inside = await expand(strategy, store);
      assert.equal(requests.length, before, 'expanding a strategy reads nothing');
      assert.deepEqual(
        inside.map((node) => [node.kind, node.label, node.description ?? '']),
        [
          ...strategySeed.constraints.map((constraint) => ['constraint', worded(constraint), '']),
          ['group', 'Variants', '2 variants'],
          ['group', 'Segments', '2 segments'],
        ],
      );
      assert.deepEqual(
        inside.slice(0, 2).map((node) => node.label),
        ['tenantId is one of acme, globex', 'userId is not one of blocked-user-1, blocked-user-2'],
      );
      assert.equal(inside[0]?.tooltip, '**tenantId** is one of acme\\, globex');

      // rollout, stickiness and groupId (the flag's own name) are all in the label: no Parameters group.
      assert.deepEqual(strategySeed.parameters, { rollout: '50', stickiness: 'userId', groupId: 'new-checkout-flow' });

      const variants = await expand(byLabel(inside, 'Variants'), store);
      assert.deepEqual(
        variants.map((node) => [node.label, node.description]),
        [
          ['blue — 50%', 'variable · stickiness: userId · json: {"color":"blue","rounded":true}'],
          ['green — 50%', 'variable · stickiness: userId · csv: green,#00ff00,1'],
        ],
      );
      assert.deepEqual(
        variants.map((node) => node.label.split(' — ')[0]),
        strategySeed.variants.map((variant) => variant.name),
      );
    });

    await t.test('segments: read when their group is expanded; each lists its constraints', async () => {
      const before = requests.length;
      const segments = await expand(byLabel(inside, 'Segments'), store);
      assert.equal(requests.length, before + 1);
      assert.match(requests[before] ?? '', new RegExp(`^GET /api/admin/segments/strategies/${STRATEGY_ID_PATTERN[unleash.current.version]}$`));
      assert.deepEqual(
        segments.map((node) => node.label),
        [...strategySeed.segments],
      );
      const internal = SEED.segments.find((segment) => segment.name === 'internal-users');
      assert.ok(internal);
      const internalRow = byLabel(segments, 'internal-users');
      assert.deepEqual(row(internalRow), {
        label: 'internal-users',
        description: `global · 1 constraint · ${internal.description}`,
        tooltip: `**internal\\-users**\n\nglobal · 1 constraint · ${internal.description}`,
        contextValue: 'segment',
        collapsible: 'collapsed',
      });
      const constraints = await expand(internalRow, store);
      assert.deepEqual(
        constraints.map((node) => [node.kind, node.label]),
        internal.constraints.map((constraint) => ['segmentConstraint', worded(constraint)]),
      );
      assert.deepEqual(constraints.map(row), [
        {
          label: 'userId ends with @example.com (case-insensitive)',
          description: undefined,
          tooltip: '**userId** ends with \\@example\\.com \\(case\\-insensitive\\)',
          contextValue: 'segmentConstraint',
          collapsible: 'none',
        },
      ]);

      const beta = SEED.segments.find((segment) => segment.name === 'beta-testers');
      assert.ok(beta);
      const betaRow = byLabel(segments, 'beta-testers');
      assert.equal(betaRow.description, `global · 2 constraints · ${beta.description}`);
      assert.deepEqual(
        (await expand(betaRow, store)).map((node) => node.label),
        beta.constraints.map(worded),
      );
    });

    await t.test('a refresh keeps every id of the walk', async () => {
      const ids = (await expand(byLabel(projectRows, 'default'), store)).map((node) => node.id);
      await store.refresh();
      const again = rootNodes(store);
      assert.deepEqual(
        (await expand(byLabel(again, 'default'), store)).map((node) => node.id),
        ids,
      );
      const flagAgain = byLabel(await expand(byLabel(again, 'default'), store), 'new-checkout-flow');
      assert.equal(flagAgain.id, flagNode?.id);
      const developmentAgain = byLabel(await expand(flagAgain, store), 'development');
      assert.equal(developmentAgain.id, development?.id);
      assert.deepEqual(
        (await expand(developmentAgain, store)).map((node) => node.id),
        (await expand(development, store)).map((node) => node.id),
      );
    });
  });

  it('a segment scoped to a project says so (checkout-express-pay in production)', async () => {
    const { store } = await realStore();
    const checkout = byLabel(await expand(undefined, store), 'checkout');
    const flag = byLabel(await expand(checkout, store), 'checkout-express-pay');
    const production = byLabel(await expand(flag, store), 'production');
    const strategy = byLabel(await expand(production, store), 'EU rollout');
    assert.equal(strategy.description, 'Gradual rollout: 25% of default · 1 segment');
    const segments = await expand(byLabel(await expand(strategy, store), 'Segments'), store);
    const seeded = SEED.segments.find((segment) => segment.name === 'checkout-eu');
    assert.ok(seeded);
    assert.deepEqual(
      segments.map((node) => [node.label, node.description]),
      [['checkout-eu', `project checkout · 1 constraint · ${seeded.description}`]],
    );
    assert.deepEqual(
      (await expand(segments[0], store)).map((node) => node.label),
      ['country is one of DE, FR, NL'],
    );
  });

  it('a disabled strategy and environment variants (admin-panel, pricing-experiment)', async () => {
    const { store } = await realStore();
    const defaultProject = byLabel(await expand(undefined, store), 'default');
    const flags = await expand(defaultProject, store);

    const adminPanel = byLabel(flags, 'admin-panel');
    const production = byLabel(await expand(adminPanel, store), 'production');
    assert.equal(production.tooltip, '**production** · enabled\n\nEnvironment type: production · 2 strategies \\(1 disabled\\) · never seen');
    const strategies = await expand(production, store);
    assert.deepEqual(
      strategies.map((node) => [node.label, node.description ?? '', node.contextValue]),
      [
        ['Gradual rollout: 100% of default', '2 constraints', 'strategy'],
        ['Paused: everyone', 'Gradual rollout: 100% of default · disabled', 'strategy:disabled'],
      ],
    );
    assert.deepEqual(
      (await expand(strategies[0], store)).slice(0, 2).map((node) => node.label),
      ['appVersion is a SemVer greater than 2.5.0', 'appVersion is a SemVer less than 4.0.0-beta.1'],
    );

    const pricing = byLabel(flags, 'pricing-experiment');
    const rows = await expand(pricing, store);
    const seeded = seedFlag('pricing-experiment');
    assert.deepEqual(
      rows.filter((node) => node.contextValue === 'group:variants').map((node) => [node.label, node.description]),
      [
        ['Variants in development', `${seeded.environments.development.variants.length} variants`],
        ['Variants in production', `${seeded.environments.production.variants.length} variant`],
      ],
    );
    const development = await expand(byLabel(rows, 'Variants in development'), store);
    assert.deepEqual(
      development.map((node) => [node.label, node.description]),
      [
        ['control — 50%', 'variable · stickiness: default · string: "control"'],
        ['treatment — 50%', 'variable · stickiness: default · json: {"price":9.99} · overrides userId: qa-user-1'],
      ],
    );
    const dates = byLabel(await expand(byLabel(rows, 'production'), store), 'Campaign window');
    assert.deepEqual(
      (await expand(dates, store)).slice(0, 4).map((node) => node.label),
      [
        'accountAgeDays is a number greater than or equal to 30',
        'accountAgeDays is a number less than 365',
        'currentTime is a date after 2024-01-01 00:00 UTC',
        'currentTime is a date before 2030-12-31 23:59:59 UTC',
      ],
    );
  });

  it('the child shows its parent dependency, which reveals the parent', async () => {
    const { store } = await realStore();
    const flags = await expand(byLabel(await expand(undefined, store), 'default'), store);
    const rows = await expand(byLabel(flags, SEED.dependency.child), store);
    const dependency = rows.find((node) => node.kind === 'dependency');
    assert.ok(dependency);
    assert.equal(dependency.label, `requires ${SEED.dependency.parent} enabled (variants: ${SEED.dependency.variants.join(', ')})`);
    assert.deepEqual(dependency.target, { project: 'default', name: SEED.dependency.parent });
  });

  it('a completed flag reads `completed (kept)` in row, tooltip, Lifecycle row, hover and details', async () => {
    const { store, source } = await realStore();
    const { flag: name, project, status } = SEED.completed;
    const flags = await expand(byLabel(await expand(undefined, store), project), store);
    const flagRow = byLabel(flags, name);
    const details = await store.feature(project, name);
    assert.equal(details.lifecycle?.stage, 'completed');
    assert.equal(details.lifecycle?.status, status);
    const at = parseIsoUtc(details.lifecycle?.enteredStageAt ?? '');
    assert.ok(at !== undefined);
    const since = utcDate(at);
    const stage = `completed (${status})`;

    // The row says the outcome alone (only a completed flag has one), to stay beside the name at the default width.
    assert.equal(flagRow.description, `d● p○ · ${status}`);
    assert.equal(flagRow.accessibleLabel, `${name}, development enabled, production disabled, ${stage}`);
    assert.equal(flagRow.tooltip?.split('\n\n').at(-1), `Lifecycle: ${escapeMarkdown(`${stage} since ${since}`)}`);
    const lifecycle = (await expand(flagRow, store)).find((node) => node.kind === 'lifecycle');
    assert.equal(lifecycle?.description, `${stage} since ${since}`);

    const summary = store.catalog.get(project, name);
    assert.ok(summary);
    const hover = hoverMarkdown({ matches: [{ summary, details }], sourceLabel: source.label, now: new Date() });
    assert.equal(hover.split('\n\n')[1], `Lifecycle: ${escapeMarkdown(`${stage} since ${since}`)}`);
    const document = await flagDocument({ summary, details, segments: new Map(), sourceLabel: source.label, now: new Date() });
    assert.ok(document.includes(`\nLifecycle: ${stage} since ${since}\n`), document.slice(0, 400));
  });

  it('an archived flag named in code is found among archived flags, with one search', async () => {
    const { store, requests } = await realStore();
    const archived = SEED.archivedFlags[0];
    assert.ok(archived);
    assert.equal(store.catalog.byName(archived).length, 0, 'the listing leaves it out');
    const before = requests.length;
    const found = await store.findArchived(archived);
    assert.equal(found?.name, archived);
    assert.equal(found?.archived, true);
    assert.equal(await store.findArchived('no-such-flag-anywhere'), undefined);
    assert.equal(await store.findArchived(archived), found, 'asked once per name');
    // (Only answers are counted: a search the listing stopped early never answers, so the window holds these alone.)
    const searches = requests.slice(before).map((request) => request.split('?')[0]).filter((request) => request?.includes('/search/'));
    assert.deepEqual(searches, ['GET /api/admin/search/features', 'GET /api/admin/search/features']);
  });
});
