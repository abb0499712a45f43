/**
 * Which large answers the extension host takes itself (src/api/answerOnHost.ts): those whose bytes show nothing past
 * the intake's budget, few enough values to hold, and that match their schema as they are, parsed to what JSON.parse
 * gives; everything else is left to the worker (undefined), whose cuts and errors are reported.
 *   node --import tsx --test test/unit/answerOnHost.test.ts
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HOST_ANSWER, takeOnHost } from '../../src/api/answerOnHost';
import { INTAKE_BUDGET } from '../../src/base/intakeBudget';
import { scanInSlices } from '../../src/base/jsonScan';
import { TimeSlices } from '../../src/base/timeSlices';
import type { AnswerSchemaName } from '../../src/api/answerSchemas';

const rows = Array.from({ length: 2_000 }, (_, i) => ({ name: `flag-${i}`, project: 'default', type: 'release', environments: [{ name: 'production', enabled: i % 2 === 0 }], tags: [] }));

async function take(value: unknown, schema: AnswerSchemaName | undefined = 'projectFeatures', text = JSON.stringify(value)): Promise<{ body: unknown } | undefined> {
  const bytes = Buffer.from(text);
  const shape = (await scanInSlices(bytes, new TimeSlices())).finish();
  return shape && takeOnHost(bytes, shape, schema, new TimeSlices());
}

describe('a large answer on the host', () => {
  it('takes one within every budget: the value JSON.parse gives', async () => {
    const answer = { version: 2, features: rows };
    assert.deepEqual(await take(answer), { body: answer });
  });

  it('leaves to the worker one past a budget it would cut: a nested list, an object, a text, the nesting', async () => {
    const first = rows[0] as Record<string, unknown>;
    const past = {
      list: { ...first, extra: { values: Array.from({ length: INTAKE_BUDGET.rowsPerList + 1 }, () => 1) } },
      object: { ...first, extra: Object.fromEntries(Array.from({ length: INTAKE_BUDGET.entriesPerObject + 1 }, (_, i) => [`k${i}`, i])) },
      text: { ...first, description: 'd'.repeat(INTAKE_BUDGET.textChars + 1) },
      nesting: { ...first, extra: JSON.parse(`${'['.repeat(INTAKE_BUDGET.depth)}${']'.repeat(INTAKE_BUDGET.depth)}`) as unknown },
    };
    for (const [budget, row] of Object.entries(past)) assert.equal(await take({ features: [row, ...rows] }), undefined, budget);
    // The top level's own list is the caller's to bound: any length is taken.
    assert.ok(await take({ features: rows, padding: Array.from({ length: INTAKE_BUDGET.rowsPerList + 1 }, () => 1) }, undefined));
  });

  it('leaves to the worker one too large to hold here, one that does not match its schema, and one that is not JSON', async () => {
    const large = { features: Array.from({ length: Math.ceil(HOST_ANSWER.bytes / 60) }, (_, i) => ({ name: `flag-with-a-longer-name-${i}`, project: 'default' })) };
    assert.equal(await take(large), undefined);
    assert.equal(await take({ features: [{ ...rows[0], name: 5 }] }), undefined);
    // Past a batch: the rows are checked batch by batch as they are parsed, the last one too.
    assert.equal(await take({ features: [...rows, { ...rows[0], name: 5 }] }), undefined);
    assert.equal(await take({ features: rows, total: 'many' }, 'featureSearch'), undefined);
    assert.equal(await take(undefined, 'projectFeatures', `{"features":[${JSON.stringify(rows[0])},]}`), undefined);
  });
});
