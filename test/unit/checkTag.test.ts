/**
 * "Unleash: Check Tag…" (src/commands/checkTag.ts) as a user meets it, against a server that holds a tag whose value
 * starts and ends with a space (Unleash keeps them: `simple: legacy ` is not `simple:legacy`): the value goes to the
 * server exactly as typed or chosen, percent-encoded; the answer quotes it and says its spaces are part of it; the
 * "Did you mean" a miss offers finds it when picked. In the 'vscode' stand-in, with the client on a local server.
 *   node --import tsx --test test/unit/checkTag.test.ts
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { UnleashClient } from '../../src/api/client';
import type { Feature, FeatureSummary, Segment } from '../../src/api/schemas';
import { Commands } from '../../src/base/constants';
import type { FlagSource } from '../../src/model/store/flagSource';
import { FlagStore } from '../../src/model/store/flagStore';
import { until } from '../support/bounded';
import { startFaultServer, type FaultServer } from '../support/faultServer';
import { installFakeVscode } from '../support/fakeVscode';

const fake = installFakeVscode();
let registerCheckTagCommand: typeof import('../../src/commands/checkTag').registerCheckTagCommand;

const PADDED = { type: 'simple', value: ' legacy ' };
const TAG_PATH = '/api/admin/tags/simple/%20legacy%20';

let server: FaultServer;
let client: UnleashClient;
let host: string;

before(async () => {
  registerCheckTagCommand = (await import('../../src/commands/checkTag')).registerCheckTagCommand;
  // The server's tags: only `simple: legacy ` (with its spaces), as a real Unleash answers get-tag.
  server = await startFaultServer({
    handler: (request) =>
      request.url === TAG_PATH
        ? { body: { version: 1, tag: PADDED } }
        : { status: 404, body: { name: 'NotFoundError', message: `No tag with type: [${request.path}]` } },
  });
  client = new UnleashClient({ baseUrl: server.url, getToken: () => 'token-0123456789abcdef', retryBaseMs: 5, timeoutMs: 5_000 });
  host = new URL(server.url).host;
});
after(async () => {
  await client.close();
  await server.close();
});
beforeEach(() => {
  server.reset();
  fake.messages.length = 0;
});

/** The server's one flag, carrying the tag. */
class Source implements FlagSource {
  readonly kind = 'server' as const;
  readonly label = 'unleash.example.com';
  async listFeatures(): Promise<FeatureSummary[]> {
    return [{ name: 'old-reports', project: 'default', environments: [], tags: [PADDED] }];
  }
  async getFeature(project: string, name: string): Promise<Feature> {
    return { name, project, environments: [] };
  }
  async getStrategySegments(): Promise<Segment[]> {
    return [];
  }
  async listEnvironments(): Promise<string[]> {
    return [];
  }
}

async function setUp() {
  const store = new FlagStore({ info() {}, error() {} });
  void store.load();
  await store.setSource(new Source(), 'ready');
  const state = { state: 'ready' as const, source: store.currentSource };
  const connection = { serverClient: async () => client, state, settled: async () => state };
  const logger = { trace() {}, debug() {}, info() {}, warn() {}, error() {}, child: () => logger };
  const command = registerCheckTagCommand({ connection, store, logger });
  return {
    run: (argument: unknown) => fake.commands.get(Commands.checkTag)?.(argument) as Promise<Record<string, unknown>>,
    dispose() {
      command.dispose();
      store.dispose();
    },
  };
}

const tagRequests = () => server.requests.filter((request) => request.path.startsWith('/api/admin/tags/')).map((request) => request.url);

describe('Check Tag: a value with spaces at its start and end', () => {
  it('typed with its spaces: asked as typed, found, and the answer says the spaces are part of it', async () => {
    const t = await setUp();
    try {
      const answer = await t.run('simple: legacy ');
      assert.deepEqual(tagRequests(), [TAG_PATH]);
      assert.deepEqual(answer, {
        exists: true,
        tag: 'simple: legacy ',
        message: 'Tag simple:" legacy " exists (1 flag in the Flags view carries it). Its value starts and ends with spaces, which are part of the tag.',
        flags: ['old-reports'],
        source: 'server',
      });
    } finally {
      t.dispose();
    }
  });

  it('typed without them: not found, and "Did you mean" offers the real value, which a click then finds', async () => {
    const t = await setUp();
    try {
      // The user clicks the suggestion's button.
      fake.answers.push('Check simple:" legacy "');
      const answer = await t.run('simple:legacy');
      assert.deepEqual(answer, {
        exists: false,
        tag: 'simple:legacy',
        message: `No tag simple:legacy on ${host}. Did you mean simple:" legacy "?`,
        flags: [],
        source: 'server',
        suggestion: 'simple: legacy ',
      });
      await until('the suggestion checked', () => fake.texts('info').length > 0);
      assert.deepEqual(tagRequests(), ['/api/admin/tags/simple/legacy', TAG_PATH]);
      assert.deepEqual(fake.texts('info'), [
        'Tag simple:" legacy " exists (1 flag in the Flags view carries it). Its value starts and ends with spaces, which are part of the tag.',
      ]);
    } finally {
      t.dispose();
    }
  });

  it('given as an object, the value is kept as it is too; a missing one says its space', async () => {
    const t = await setUp();
    try {
      assert.equal((await t.run(PADDED)).exists, true);
      const missing = await t.run({ type: 'simple', value: 'legacy ' });
      assert.equal(missing.message, `No tag simple:"legacy " on ${host}. Its value ends with a space, which is part of the tag. Did you mean simple:" legacy "?`);
      assert.deepEqual(tagRequests(), [TAG_PATH, '/api/admin/tags/simple/legacy%20']);
    } finally {
      t.dispose();
    }
  });
});
