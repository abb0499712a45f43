/**
 * Reading an export file back: the result, the verdict and the message of the whole-file JSON.parse and zod check it
 * replaces (written out below as `wholeFile`), on the fixture, on thousands of mutations of it and on broken JSON, with
 * the file read in slices that yield to the event loop; a broken file too large to parse whole is named by the line of
 * the part that fails.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { mulberry32 } from '../../bench/data';
import { exportResultSchema } from '../../src/api/exportSchemas';
import { validate } from '../../src/api/validate';
import { TimeSlices } from '../../src/base/timeSlices';
import { MAX_EXPORT_DEPTH, parseExportFile } from '../../src/model/export/exportFile';
import { InvalidExportFileError } from '../../src/model/export/invalidExportFileError';
import { serializeExport } from '../../src/model/export/exportBytes';

type Obj = Record<string, unknown>;

const fixtureText = readFileSync(path.join(__dirname, '..', 'fixtures', 'export-development.json'), 'utf8');
const fixture = (): Obj => JSON.parse(fixtureText) as Obj;

/** How a file was read before: JSON.parse of the whole text, then zod's first issue on the whole result. */
function wholeFile(text: string): { result?: unknown; message?: string; fieldPath?: string } {
  let data: unknown;
  try {
    data = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (error) {
    return { message: `The export file is not valid JSON: ${(error as Error).message}`, fieldPath: '' };
  }
  const parsed = validate(exportResultSchema, data);
  if (parsed.success) return { result: parsed.data };
  const issue = parsed.error.issues[0];
  let fieldPath = '';
  for (const part of issue?.path ?? []) fieldPath += typeof part === 'number' ? `[${part}]` : fieldPath === '' ? String(part) : `.${String(part)}`;
  const where = fieldPath === '' ? 'the top level' : `"${fieldPath}"`;
  return { message: `The export file is not a valid Unleash export: ${where}: ${issue?.message}`, fieldPath };
}

async function sliced(text: string): Promise<{ result?: unknown; message?: string; fieldPath?: string }> {
  try {
    return { result: await parseExportFile(text, new TimeSlices(0, async () => undefined)) };
  } catch (error) {
    assert.ok(error instanceof InvalidExportFileError, String(error));
    return { message: error.message, fieldPath: error.fieldPath };
  }
}

/** Every member of a JSON value, as [parent, key] pairs. */
function slots(value: unknown, into: Array<[Obj, string]> = []): Array<[Obj, string]> {
  if (typeof value !== 'object' || value === null) return into;
  for (const key of Object.keys(value)) {
    into.push([value as Obj, key]);
    slots((value as Obj)[key], into);
  }
  return into;
}

const REPLACEMENTS: unknown[] = [null, 0, 1.5, -1, '', 'text', true, [], [1], {}, { a: 1 }, ['x']];

describe('parseExportFile', () => {
  it('reads a written file back into an export result, unknown keys included', async () => {
    const source = fixture();
    source.futureSection = { kept: true };
    const parsed = await parseExportFile(serializeExport(source));
    assert.equal(parsed.features.length, 3);
    assert.deepEqual((parsed as Obj).futureSection, { kept: true });
  });

  it('accepts a byte-order mark', async () => {
    assert.equal((await parseExportFile(`\ufeff${serializeExport(fixture())}`)).featureStrategies.length, 4);
  });

  it('names the first bad field', async () => {
    const source = fixture();
    delete ((source.featureStrategies as Obj[])[2] as Obj).name;
    await assert.rejects(
      parseExportFile(JSON.stringify(source)),
      (error: unknown) =>
        error instanceof InvalidExportFileError && error.fieldPath === 'featureStrategies[2].name' && error.message.includes('"featureStrategies[2].name"'),
    );
    const badOperator = fixture();
    ((((badOperator.featureStrategies as Obj[])[1] as Obj).constraints as Obj[])[0] as Obj).operator = 7;
    await assert.rejects(parseExportFile(JSON.stringify(badOperator)), /featureStrategies\[1\]\.constraints\[0\]\.operator/);
    await assert.rejects(parseExportFile('{"featureStrategies":[],"tagTypes":[]}'), /"features"/);
    await assert.rejects(parseExportFile('[]'), (error: unknown) => error instanceof InvalidExportFileError && error.fieldPath === '');
  });

  it('reports a file that is not JSON', async () => {
    await assert.rejects(parseExportFile('{"features": ['), /not valid JSON/);
    await assert.rejects(parseExportFile(''), InvalidExportFileError);
  });

  it('gives the result, or the message, of the whole-file check on 2,000 mutations of the fixture', async () => {
    const next = mulberry32(2027);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
    let refused = 0;
    for (let i = 0; i < 2_000; i++) {
      const payload = fixture();
      for (let n = 1 + Math.floor(next() * 3); n > 0; n--) {
        const [parent, key] = pick(slots(payload));
        if (next() < 0.25 && !Array.isArray(parent)) delete parent[key];
        else parent[key] = structuredClone(pick(REPLACEMENTS));
      }
      const text = JSON.stringify(payload, null, next() < 0.5 ? 2 : undefined);
      const expected = wholeFile(text);
      if (expected.message) refused++;
      assert.deepStrictEqual(await sliced(text), expected, `mutation ${i}: ${text}`);
    }
    assert.ok(refused > 500 && refused < 2_000, `${refused} of 2,000 mutations refused`);
  });

  it('refuses broken JSON with the whole-file message', async () => {
    const text = serializeExport(fixture());
    for (const broken of [text.slice(0, 100), text.slice(0, -3), `${text}x`, text.replace('"features"', '"features" "'), text.replace(': [', ': [,')]) {
      assert.deepStrictEqual(await sliced(broken), wholeFile(broken), broken.slice(0, 60));
    }
  });

  it('refuses a broken file too large to parse whole with the line of the part that fails and JSON.parse’s error on it', async () => {
    const features = Array.from({ length: 20_000 }, (_, i) => `{"name": "flag-${i}", "project": "default", "description": "${'x'.repeat(900)}"}`);
    features[15_000] = '{"name": "flag-15000" "project": "default"}';
    const text = `{"features": [\n${features.join(',\n')}\n], "featureStrategies": [], "tagTypes": []}`;
    assert.ok(text.length > 16 * 1024 * 1024);
    await assert.rejects(parseExportFile(text), (error: unknown) => {
      assert.ok(error instanceof InvalidExportFileError);
      assert.match(error.message, /^The export file is not valid JSON from line (\d+) on: Expected ',' or '}' after property value$/);
      const line = Number(/line (\d+)/.exec(error.message)?.[1]);
      assert.ok(line <= 15_002 && line > 14_700, `the part from line ${line}, the error on line 15002`);
      return true;
    });
  });

  it('refuses a file nested deeper than any export, saying so', async () => {
    const deep = `{"features":[],"featureStrategies":[],"tagTypes":[],"extra":${'['.repeat(MAX_EXPORT_DEPTH)}${']'.repeat(MAX_EXPORT_DEPTH)}}`;
    await assert.rejects(parseExportFile(deep), {
      message: `The export file nests lists and objects more than ${MAX_EXPORT_DEPTH} levels deep, which no export does. Export the environment again.`,
    });
  });

  it('checks a large file a list element at a time, yielding to the event loop', async () => {
    const large = fixture();
    const strategy = (large.featureStrategies as Obj[])[0] as Obj;
    large.featureStrategies = Array.from({ length: 20_000 }, (_, i) => ({ ...strategy, id: `s${i}` }));
    (large.featureStrategies as Obj[])[19_999] = { ...strategy, name: 7 };
    let yields = 0;
    const slices = new TimeSlices(0, async () => {
      yields++;
    });
    await assert.rejects(parseExportFile(JSON.stringify(large), slices), { fieldPath: 'featureStrategies[19999].name' });
    assert.ok(yields > 20_000, `${yields} yields`);
  });
});
