/**
 * The engine against Unleash's client specification (@unleash/client-specification, pinned in package.json and read
 * from node_modules, never copied here): every enablement case (`tests`) and every variant case (`variantTests`) of
 * every file its index lists. Only the delta API's files are skipped, each with why; a final line prints the counts.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { readContext } from '../../src/model/evaluation/context';
import { modelOfClientState } from '../../src/model/evaluation/clientState';
import { FlagEvaluator } from '../../src/model/evaluation/evaluate';

const folder = path.join(__dirname, '..', '..', 'node_modules', '@unleash', 'client-specification', 'specifications');

/** Files the engine does not model, and why. Any other file must pass whole. */
const SKIPPED: Record<string, string> = {
  '19-delta-api-hydration.json': 'the delta API (a stream of hydration events an SDK applies); the extension reads export files and the Admin API, never that stream',
  '20-delta-api-events.json': 'the delta API (feature-updated, feature-removed and segment-updated events); the extension reads export files and the Admin API, never that stream',
};

interface SpecCase {
  description: string;
  context: unknown;
  toggleName: string;
}

interface SpecFile {
  name: string;
  state: unknown;
  tests?: (SpecCase & { expectedResult: boolean })[];
  variantTests?: (SpecCase & { expectedResult: { name: string; enabled: boolean; payload?: { type: string; value: string }; feature_enabled?: boolean; featureEnabled?: boolean } })[];
}

const ENVIRONMENT = 'specification';
const index = JSON.parse(readFileSync(path.join(folder, 'index.json'), 'utf8')) as string[];
const counts = { enablementPassed: 0, variantPassed: 0, enablementSkipped: 0, variantSkipped: 0 };

/** The answer for the case, from the path that explains, checked to agree with the one that evaluates every flag. */
function answerFor(file: SpecFile, test: SpecCase) {
  const intake = readContext(test.context);
  assert.deepEqual(intake.notes, [], 'the specification contexts are taken whole');
  const model = modelOfClientState(file.state, ENVIRONMENT);
  const options = { environmentFromEvaluation: false };
  const explained = new FlagEvaluator(model, intake.context, options).explain(test.toggleName, ENVIRONMENT);
  const state = new FlagEvaluator(model, intake.context, options).evaluate(test.toggleName, ENVIRONMENT);
  assert.deepEqual([explained.enabled, explained.variant, explained.decidedBy], [state.enabled, state.variant, state.decidedBy]);
  return explained;
}

describe('the client specification, 6.1.0', () => {
  after(() => {
    console.log(
      `client specification: ${counts.enablementPassed} enablement and ${counts.variantPassed} variant cases passed; ` +
        `${counts.enablementSkipped} enablement and ${counts.variantSkipped} variant cases skipped (${Object.keys(SKIPPED).join(', ')})`,
    );
  });

  it('is the pinned version, with the files and cases this test expects', () => {
    const pkg = JSON.parse(readFileSync(path.join(folder, '..', 'package.json'), 'utf8')) as { version: string };
    assert.equal(pkg.version, '6.1.0');
    const files = index.map((name) => JSON.parse(readFileSync(path.join(folder, name), 'utf8')) as SpecFile);
    assert.equal(files.reduce((sum, file) => sum + (file.tests?.length ?? 0), 0), 227);
    assert.equal(files.reduce((sum, file) => sum + (file.variantTests?.length ?? 0), 0), 52);
    assert.deepEqual(index.filter((name) => name in SKIPPED), Object.keys(SKIPPED), 'only the delta API files are skipped');
  });

  for (const name of index) {
    const file = JSON.parse(readFileSync(path.join(folder, name), 'utf8')) as SpecFile;
    const reason = SKIPPED[name];
    if (reason) {
      it(`${name}: skipped, ${reason}`, () => {
        counts.enablementSkipped += file.tests?.length ?? 0;
        counts.variantSkipped += file.variantTests?.length ?? 0;
      });
      continue;
    }
    describe(name, () => {
      for (const test of file.tests ?? []) {
        it(test.description, () => {
          const answer = answerFor(file, test);
          assert.equal(answer.enabled, test.expectedResult, JSON.stringify(answer, (_key, value) => (value instanceof Map ? Object.fromEntries(value) : value)));
          counts.enablementPassed++;
        });
      }
      for (const test of file.variantTests ?? []) {
        it(`variant: ${test.description}`, () => {
          const answer = answerFor(file, test);
          assert.notEqual(answer.variant, 'unknown');
          const variant = answer.variant as Exclude<typeof answer.variant, 'unknown'>;
          const expected = test.expectedResult;
          const actual: Record<string, unknown> = { name: variant.name, enabled: variant.enabled };
          if (variant.payload) actual.payload = variant.payload;
          if ('feature_enabled' in expected) actual.feature_enabled = answer.enabled;
          if ('featureEnabled' in expected) actual.featureEnabled = answer.enabled;
          assert.deepEqual(actual, expected);
          counts.variantPassed++;
        });
      }
    });
  }
});
