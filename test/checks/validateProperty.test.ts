/**
 * validate() gives zod's verdict: a property test on generated payloads. For every schema the client and the export
 * reader hand to validate() (found in src/, so a new one cannot be left out), and for one schema holding every
 * construct validate() compiles (the only place a required `z.unknown()` is left), 10,000 payloads are built from the
 * schema itself, near-valid and broken: absent required and optional keys, keys present as `undefined`, wrong types,
 * extra keys (an own `__proto__` among them), nulls, NaN and ±Infinity, nested arrays. validate() and zod must say
 * the same: the same yes or no, on a yes the same content, on a no the same issues. Seeded: a failure names the
 * schema and the payload's index, and the same run replays it.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { inspect } from 'node:util';
import { z } from 'zod';
import { mulberry32 } from '../../bench/data';
import * as activitySchemas from '../../src/api/activitySchemas';
import * as exportSchemas from '../../src/api/exportSchemas';
import * as playgroundSchemas from '../../src/api/playgroundSchemas';
import * as schemas from '../../src/api/schemas';
import { validate } from '../../src/api/validate';

const PAYLOADS = 10_000;

/** Every construct validate() decides itself or asks of zod, in one schema, with a required key of each. */
const everyConstruct = z.looseObject({
  unknown: z.unknown(),
  any: z.any(),
  nullableUnknown: z.unknown().nullable(),
  optionalUnknown: z.unknown().optional(),
  text: z.string(),
  count: z.number().int(),
  ratio: z.number(),
  on: z.boolean(),
  kind: z.literal('release'),
  stage: z.enum(['initial', 'pre-live', 'live', 'completed', 'archived']),
  nothing: z.null(),
  either: z.union([z.string(), z.number()]),
  parameters: z.record(z.string(), z.union([z.string(), z.boolean()])),
  note: z.string().nullish(),
  rows: z.array(z.looseObject({ name: z.string(), value: z.unknown() })),
  grid: z.array(z.array(z.number())),
});

/** The schemas src/ hands to validate(), directly or through the client's `parse(schema, …)`. */
function schemasInUse(): string[] {
  const root = path.join(__dirname, '..', '..', 'src');
  const files = (readdirSync(root, { recursive: true }) as string[]).filter((file) => file.endsWith('.ts'));
  const names = new Set<string>();
  for (const file of files) {
    for (const match of readFileSync(path.join(root, file), 'utf8').matchAll(/\b(?:validate|parse\w*)\((\w+Schema)\b/g)) names.add(match[1] as string);
  }
  return [...names].sort();
}

type Random = () => number;
type Kind = 'absent required' | 'absent optional' | 'undefined value' | 'wrong value' | 'extra key' | '__proto__ key' | 'null' | 'NaN or Infinity' | 'nested arrays';

/** Builds payloads for one schema: `rate` is how often a place gets something its schema does not describe. */
class Generator {
  readonly seen = new Map<Kind, number>();
  /** Payloads that hold a place for a required, an optional key (where leaving one out can happen). */
  readonly places = { required: 0, optional: 0 };
  private has = { required: false, optional: false };
  private rate = 0;
  private kinds = new Set<Kind>();

  constructor(private readonly next: Random) {}

  payload(schema: z.ZodType): { value: unknown; kinds: Kind[] } {
    this.rate = this.pick([0, 0, 0.005, 0.02, 0.05, 0.15]);
    this.kinds = new Set();
    this.has = { required: false, optional: false };
    const value = this.value(schema, 0);
    if (this.has.required) this.places.required++;
    if (this.has.optional) this.places.optional++;
    for (const kind of this.kinds) this.seen.set(kind, (this.seen.get(kind) ?? 0) + 1);
    return { value, kinds: [...this.kinds] };
  }

  private value(schema: z.ZodType, depth: number): unknown {
    if (this.next() < this.rate) return this.hostile(depth);
    const def = schema.def as unknown as Record<string, unknown> & { type: string; checks?: unknown[] };
    switch (def.type) {
      case 'string':
        return this.pick(['', 'default', 'flag-1', 'ünïcödé', '2026-11-01T09:00:00.000Z', 'x'.repeat(300), '\u202egnp.exe']);
      case 'number':
        return def.checks?.length ? this.pick([0, 1, 7, -3, 2 ** 31]) : this.pick([0, 1, 50, -3, 1.5, 1e21, -0]);
      case 'boolean':
        return this.next() < 0.5;
      case 'literal':
        return (def.values as unknown[])[0];
      case 'enum':
        return this.pick(Object.values(def.entries as Record<string, unknown>));
      case 'null':
        return null;
      case 'unknown':
      case 'any':
        return this.anything(depth);
      case 'union':
        return this.value(this.pick(def.options as z.ZodType[]), depth);
      case 'optional':
        return this.next() < 0.2 ? undefined : this.value(def.innerType as z.ZodType, depth);
      case 'nullable':
        return this.next() < 0.2 ? null : this.value(def.innerType as z.ZodType, depth);
      case 'array':
        return Array.from({ length: this.length(depth) }, () => this.value(def.element as z.ZodType, depth + 1));
      case 'record': {
        const record: Record<string, unknown> = {};
        for (let i = this.length(depth); i > 0; i--) record[this.pick(['rollout', 'groupId', 'stickiness', 'a b', ''])] = this.value(def.valueType as z.ZodType, depth + 1);
        return this.extras(record, depth);
      }
      case 'object':
        return this.object(def.shape as Record<string, z.ZodType>, depth);
      default:
        throw new Error(`the generator has no rule for a ${def.type} schema: add one`);
    }
  }

  private object(shape: Record<string, z.ZodType>, depth: number): Record<string, unknown> {
    const record: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(shape)) {
      const optional = (field._zod as { optin?: string }).optin === 'optional';
      this.has[optional ? 'optional' : 'required'] = true;
      // A required key is left out as often as anything else is broken; an optional one often.
      if (this.next() < (optional ? 0.35 : this.rate)) {
        this.kinds.add(optional ? 'absent optional' : 'absent required');
        continue;
      }
      const value = this.value(field, depth + 1);
      if (value === undefined) this.kinds.add('undefined value');
      record[key] = value;
    }
    return this.extras(record, depth);
  }

  /** Sometimes adds keys no schema names: a newer server's, and an own `__proto__` (as JSON.parse makes it). */
  private extras(record: Record<string, unknown>, depth: number): Record<string, unknown> {
    if (this.next() < this.rate * 4) {
      record[this.pick(['extra', 'x-new-field', 'constructor', 'toString'])] = this.anything(depth + 1);
      this.kinds.add('extra key');
    }
    if (this.next() < this.rate) {
      Object.defineProperty(record, '__proto__', { value: this.anything(depth + 1), enumerable: true, writable: true, configurable: true });
      this.kinds.add('__proto__ key');
    }
    return record;
  }

  /** Something the schema does not describe at this place (or, by chance, does). */
  private hostile(depth: number): unknown {
    const roll = this.next();
    if (roll < 0.2) {
      this.kinds.add('null');
      return null;
    }
    if (roll < 0.35) {
      this.kinds.add('NaN or Infinity');
      return this.pick([Number.NaN, Infinity, -Infinity]);
    }
    if (roll < 0.5) {
      this.kinds.add('nested arrays');
      return this.nestedArrays(1 + Math.floor(this.next() * 12));
    }
    if (roll < 0.6) {
      this.kinds.add('undefined value');
      return undefined;
    }
    this.kinds.add('wrong value');
    return this.anything(depth);
  }

  /** Any JSON value (and NaN), small and bounded in depth. */
  private anything(depth: number): unknown {
    const roll = this.next();
    if (depth > 6 || roll < 0.6) return this.pick([null, 0, -1, 1.5, Number.NaN, '', 'text', true, false]);
    if (roll < 0.8) return Array.from({ length: this.length(depth) }, () => this.anything(depth + 1));
    const record: Record<string, unknown> = {};
    for (let i = this.length(depth); i > 0; i--) record[this.pick(['a', 'name', 'value', 'enabled'])] = this.anything(depth + 1);
    return record;
  }

  private nestedArrays(depth: number): unknown {
    let value: unknown = this.pick([[], [1], ['x'], [null]]);
    for (let i = 0; i < depth; i++) value = this.next() < 0.5 ? [value] : [value, this.anything(6)];
    return value;
  }

  /** 0 to 3 elements, fewer the deeper: the payloads stay small, so 10,000 of each schema run in seconds. */
  private length(depth: number): number {
    const roll = this.next();
    if (depth > 8 || roll < 0.3) return 0;
    return roll < 0.7 ? 1 : roll < 0.9 ? 2 : 3;
  }

  private pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.next() * list.length)] as T;
  }
}

const byName = { ...schemas, ...exportSchemas, ...activitySchemas, ...playgroundSchemas } as unknown as Record<string, z.ZodType>;
const cases: Array<[string, z.ZodType]> = [...schemasInUse().map((name): [string, z.ZodType] => [name, byName[name] as z.ZodType]), ['every construct', everyConstruct]];

describe('validate() and zod agree on generated payloads', () => {
  it('covers every schema src/ hands to validate()', () => {
    const names = schemasInUse();
    assert.ok(names.length >= 10, `found only ${names.join(', ')}`);
    for (const name of names) assert.ok(byName[name] instanceof z.ZodType, `${name} is not exported by the schema files of src/api`);
  });

  for (const [name, schema] of cases) {
    it(`${name}: ${PAYLOADS.toLocaleString('en-US')} payloads, the same verdict, content and issues`, () => {
      const seed = [...name].reduce((hash, ch) => (Math.imul(hash, 31) + ch.charCodeAt(0)) >>> 0, 7);
      const generator = new Generator(mulberry32(seed));
      let accepted = 0;
      for (let i = 0; i < PAYLOADS; i++) {
        const { value, kinds } = generator.payload(schema);
        const expected = schema.safeParse(value);
        const actual = validate(schema, value);
        const where = () => `${name}, payload ${i} (seed ${seed}; ${kinds.join(', ') || 'valid'}): ${inspect(value, { depth: 6, breakLength: Infinity })}`;
        assert.equal(actual.success, expected.success, `zod says ${expected.success ? 'yes' : 'no'}: ${where()}`);
        if (expected.success) {
          accepted++;
          assert.deepStrictEqual(actual.data, expected.data, where());
        } else assert.deepStrictEqual(actual.error?.issues, expected.error.issues, where());
      }
      // The payloads reach the schema: a fair share of each verdict, and each kind of breakage often.
      assert.ok(accepted > PAYLOADS / 10 && accepted < PAYLOADS * 0.9, `${accepted} of ${PAYLOADS} accepted`);
      for (const kind of ['undefined value', 'wrong value', 'extra key', '__proto__ key', 'null', 'NaN or Infinity', 'nested arrays'] as Kind[]) {
        assert.ok((generator.seen.get(kind) ?? 0) > PAYLOADS / 100, `${kind}: ${generator.seen.get(kind) ?? 0} payloads`);
      }
      for (const [kind, place] of [['absent required', 'required'], ['absent optional', 'optional']] as const) {
        const count = generator.seen.get(kind) ?? 0;
        if (generator.places[place] > PAYLOADS / 10) assert.ok(count > PAYLOADS / 100, `${kind}: ${count} payloads`);
      }
    });
  }
});
