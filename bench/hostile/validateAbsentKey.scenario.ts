/**
 * Finding 8: an answer without a key the schema requires (a required `z.unknown()`, the shape that let the
 * ui-config schema pass by accident) and with an own `__proto__` key. `validate()` answers as zod does: refused,
 * with zod's own issue, and equal results on 10,000 generated payloads per schema (test/checks/validateProperty.test.ts).
 */
import { z } from 'zod';
import { validate } from '../../src/api/validate';
import type { HostileScenario } from './scenario';

const schema = z.looseObject({ name: z.string(), value: z.unknown() });

export const scenario: HostileScenario = {
  finding: 8,
  input: 'an answer missing a required `z.unknown()` key, and one with an own `__proto__` key',
  async run() {
    const absent = validate(schema, { name: 'a' });
    const zod = schema.safeParse({ name: 'a' });
    const proto = validate(schema, JSON.parse('{"name":"b","value":1,"__proto__":{"polluted":true}}'));
    const words = (result: { success: boolean; error?: { issues: Array<{ path: PropertyKey[]; message: string }> } }) =>
      result.success ? 'accepted' : `refused: ${result.error?.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`).join('; ')}`;
    return `absent key: ${words(absent)} (zod: ${words(zod)}) · own __proto__: ${words(proto)}, polluted: ${String(({} as Record<string, unknown>).polluted)}`;
  },
  expect: /^absent key: refused: value .+ \(zod: refused: value .+\) · own __proto__: accepted, polluted: undefined$/,
};
