/**
 * validate(): zod's verdict without zod's copy. Proven against zod itself: the same yes or no, the same error, and on
 * a yes the input's content is what zod would have returned, over the recorded payloads of real servers and
 * thousands of mutations of them (wrong types, missing and extra fields, nulls where none may be).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { mulberry32 } from '../../bench/data';
import { exportResultSchema } from '../../src/api/exportSchemas';
import * as schemas from '../../src/api/schemas';
import { validate } from '../../src/api/validate';

const fixture = (name: string): unknown => JSON.parse(readFileSync(path.join(__dirname, '..', 'fixtures', name), 'utf8'));

const cases: Array<[string, z.ZodType, unknown]> = [
  ['an export of 7.5.1', exportResultSchema, fixture('export-development.json')],
  ['a feature of 7.5.1', schemas.featureSchema, fixture('feature-7.5.1.json')],
  ['a feature of 8.2.0', schemas.featureSchema, fixture('feature-8.2.0.json')],
  ['a search page', schemas.featureSearchSchema, fixture('search-page.json')],
  ['a project listing', schemas.projectFeaturesSchema, fixture('search-page.json')],
  ['segments', schemas.segmentsSchema, fixture('segments.json')],
  ['environments', schemas.environmentsSchema, fixture('environments.json')],
];

/** Values a hostile or newer server might put anywhere. */
const REPLACEMENTS: unknown[] = [null, undefined, 0, 1.5, -1, Number.NaN, Infinity, '', 'text', true, false, [], [1], {}, { a: 1 }, ['x']];

/** Every container and member of a JSON value, as [parent, key] pairs. */
function slots(value: unknown, into: Array<[Record<string, unknown>, string]> = []): Array<[Record<string, unknown>, string]> {
  if (typeof value !== 'object' || value === null) return into;
  for (const key of Object.keys(value)) {
    into.push([value as Record<string, unknown>, key]);
    slots((value as Record<string, unknown>)[key], into);
  }
  return into;
}

/** A copy of `value` with one to three members replaced, removed, or added. */
function mutate(value: unknown, next: () => number): { payload: unknown; said: string[] } {
  const payload = structuredClone(value);
  const said: string[] = [];
  const pick = <T>(list: T[]): T => list[Math.floor(next() * list.length)] as T;
  for (let n = 1 + Math.floor(next() * 3); n > 0; n--) {
    const all = slots(payload);
    if (!all.length) break;
    const [parent, key] = pick(all);
    const roll = next();
    if (roll < 0.2 && !Array.isArray(parent)) {
      delete parent[key];
      said.push(`delete ${key}`);
    } else if (roll < 0.3 && !Array.isArray(parent)) {
      parent[`extra${Math.floor(next() * 9)}`] = structuredClone(pick(REPLACEMENTS));
      said.push(`add a field beside ${key}`);
    } else {
      const replacement = structuredClone(pick(REPLACEMENTS));
      parent[key] = replacement;
      said.push(`${key} = ${String(replacement)}`);
    }
  }
  return { payload, said };
}

describe('validate (zod without the copy)', () => {
  for (const [name, schema, payload] of cases) {
    it(`accepts ${name} as it came, without a copy, exactly as zod does`, () => {
      const result = validate(schema, payload);
      assert.equal(result.success, true);
      assert.equal(result.data, payload, 'the input itself is the result');
      assert.deepStrictEqual(result.data, schema.parse(structuredClone(payload)));
    });

    it(`agrees with zod on 400 mutations of ${name}`, () => {
      // Seeded, so a failure names a mutation that can be replayed.
      const next = mulberry32(name.length * 7919);
      let rejected = 0;
      for (let i = 0; i < 400; i++) {
        const { payload: mutated, said } = mutate(payload, next);
        const expected = schema.safeParse(structuredClone(mutated));
        const actual = validate(schema, mutated);
        assert.equal(actual.success, expected.success, `mutation ${i} (${said.join(', ')}): zod says ${expected.success}`);
        if (expected.success) assert.deepStrictEqual(actual.data, expected.data, `mutation ${i} (${said.join(', ')})`);
        else {
          rejected++;
          assert.deepStrictEqual(actual.error?.issues, expected.error.issues, `mutation ${i} (${said.join(', ')}): zod's error`);
        }
      }
      // The mutations must reach the schema: some are refused, some kept.
      assert.ok(rejected > 40 && rejected < 400, `${rejected} of 400 mutations rejected`);
    });
  }

  it('reports zod’s error for a payload it refuses', () => {
    const result = validate(schemas.featureSchema, { name: 7 });
    assert.equal(result.success, false);
    assert.equal(result.error?.issues[0]?.message, 'Invalid input: expected string, received number');
    assert.deepStrictEqual(result.error?.issues[0]?.path, ['name']);
  });

  it('keeps integer, union and record checks: a fractional segment id and an object parameter are refused', () => {
    const segment = { id: 1.5, name: 's', constraints: [], createdAt: '2026-11-01T09:00:00.000Z' };
    assert.equal(validate(schemas.segmentSchema, segment).success, false);
    assert.equal(validate(schemas.segmentSchema, { ...segment, id: 1 }).success, true);
    const strategy = { name: 'default', parameters: { rollout: '50', groupId: 7, sticky: true } };
    assert.equal(validate(schemas.strategySchema, strategy).success, true);
    assert.equal(validate(schemas.strategySchema, { ...strategy, parameters: { rollout: { value: 50 } } }).success, false);
  });

  it('leaves to zod a schema that changes its input: a stripping object, a transform, a default', () => {
    const strip = z.object({ a: z.string() });
    assert.deepStrictEqual(validate(strip, { a: 'x', b: 1 }).data, { a: 'x' });
    const transformed = z.looseObject({ a: z.string().transform((text) => text.length) });
    assert.deepStrictEqual(validate(transformed, { a: 'abc' }).data, { a: 3 });
    const defaulted = z.looseObject({ a: z.array(z.string()).default([]) });
    assert.deepStrictEqual(validate(defaulted, {}).data, { a: [] });
  });
});
