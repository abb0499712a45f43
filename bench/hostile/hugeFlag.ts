/**
 * A flag of about 33 MB (under the 64 MiB answer cap), built in the measured process in small steps so that building
 * it never blocks: two environments of three strategies each, every strategy a constraint of 100,000 values, 20,000
 * parameters and a variant with a JSON payload of 900 KB; a description of 5 MB. The Show Flag Details and Compare
 * Environments scenarios read it through the store, as the commands do.
 */
import type { Feature, FeatureSummary, Strategy } from '../../src/api/schemas';
import { nextTurn } from '../../src/base/nextTurn';
import type { FlagStore } from '../../src/model/store/flagStore';
import { listingSource, storeOver } from '../../test/support/flagCatalog';

const VALUES = 100_000;
const PARAMETERS = 20_000;
const STEP = 5_000;

async function list<T>(length: number, make: (i: number) => T): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < length; i++) {
    out.push(make(i));
    if (i % STEP === STEP - 1) await nextTurn();
  }
  return out;
}

/** Characters of JSON the flag would take, counted as it is built. */
let size = 0;

async function strategy(env: string, n: number): Promise<Strategy> {
  const values = await list(VALUES, (i) => `${env}-${n}-value-${String(i).padStart(8, '0')}`);
  for (const value of values) size += value.length + 3;
  const parameters: Record<string, string> = {};
  await list(PARAMETERS, (i) => (parameters[`p${(i * 7919) % PARAMETERS}`] = `v${i}`));
  size += PARAMETERS * 16;
  const items = await list(24_000, (i) => `{"id":${i},"name":"item-${i}","on":${i % 2 === 0}}`);
  const payload = { type: 'json', value: `{"items":[${items.join(',')}]}` };
  size += payload.value.length * 1.1;
  return {
    id: `${env}-${n}`,
    name: 'flexibleRollout',
    parameters,
    constraints: [{ contextName: 'userId', operator: 'IN', values }],
    segments: [],
    variants: [{ name: 'big', weight: 1000, weightType: 'variable', stickiness: 'default', payload }],
  };
}

/** The store over a source holding the 33 MB flag `huge`, listed; and its size in megabytes of JSON, roughly. */
export interface HugeFlag {
  store: FlagStore;
  feature: Feature;
  megabytes: number;
}

export async function hugeFlagStore(): Promise<HugeFlag> {
  size = 5_000_000;
  const environments = [];
  for (const name of ['development', 'production']) {
    const strategies = [];
    for (let n = 0; n < 3; n++) strategies.push(await strategy(name, n));
    environments.push({ name, enabled: name === 'development', strategies });
  }
  const summary: FeatureSummary = { name: 'huge', project: 'default', environments: environments.map((env) => ({ name: env.name, enabled: env.enabled })) };
  const feature: Feature = { ...summary, description: 'd'.repeat(5_000_000), environments };
  const store = await storeOver(listingSource([summary], { details: [feature], environments: ['development', 'production'] }));
  return { store, feature, megabytes: Math.round(size / 1_000_000) };
}
