/**
 * The evaluation engine (src/model/evaluation/) on the benchmark's catalog (bench/data.ts, 10,000 flags by default):
 * - every flag in every environment (development, production) for one context, from the export files' model: the
 *   first evaluation (each check compiled then) and warm ones (a new evaluator for the same model, as a status strip
 *   would make for a new context), median and p99 over repetitions, wall clock and CPU time; one flag explained;
 * - building the model from the two export files;
 * - a catastrophic regular expression, `(a+)+$` against 100,000 `a`s and a `b`, evaluated as a REGEX constraint
 *   (re2js), beside what the native RegExp takes for the same pattern on 23 characters.
 *
 *   npx tsx bench/evaluation.bench.ts [--flags N] [--repetitions N]
 *
 * Imports the TypeScript source (tsx). Nothing is asserted; docs/evaluation.md quotes the figures with the machine.
 */
import { exportResultSchema } from '../src/api/exportSchemas';
import { readContext } from '../src/model/evaluation/context';
import { FlagEvaluator } from '../src/model/evaluation/evaluate';
import { modelOfClientState } from '../src/model/evaluation/clientState';
import { modelOfExports } from '../src/model/evaluation/exportModel';
import { ENVIRONMENTS, generateDataset } from './data';
import { machine, round } from './measure';

const argument = (name: string, fallback: number): number => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
};
const flagCount = argument('--flags', 10_000);
const repetitions = argument('--repetitions', 200);

const percentile = (sorted: readonly number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;

function timed(run: () => void): number {
  const start = performance.now();
  run();
  return performance.now() - start;
}

const dataset = generateDataset(flagCount);
const files = ENVIRONMENTS.map((environment) => ({
  path: `.unleash/${environment.name}.json`,
  result: exportResultSchema.parse(dataset.exportFor(environment.name)),
}));
const context = readContext({
  userId: '482913',
  sessionId: 'session-7f3a',
  remoteAddress: '10.1.2.3',
  appName: 'checkout-web',
  properties: { tenantId: 'tenant-a', region: 'eu-west-1', email: 'ann@staff.example.com', accountAgeDays: '42', appVersion: '3.4.5', signupDate: '2024-05-01' },
}).context;

const buildMs = timed(() => modelOfExports(files));
const model = modelOfExports(files);
const count = (answers: ReturnType<FlagEvaluator['evaluateAll']>, on: boolean): number =>
  [...answers.values()].reduce((sum, states) => sum + [...states.values()].filter((state) => !on || state.enabled === true).length, 0);
let evaluations = 0;
let on = 0;
const firstMs = timed(() => new FlagEvaluator(model, context).evaluateAll());
const warm: number[] = [];
const cpu: number[] = [];
for (let i = 0; i < repetitions; i++) {
  let answers: ReturnType<FlagEvaluator['evaluateAll']> = new Map();
  const before = process.cpuUsage();
  warm.push(timed(() => (answers = new FlagEvaluator(model, context).evaluateAll())));
  const used = process.cpuUsage(before);
  cpu.push((used.user + used.system) / 1000);
  evaluations = count(answers, false);
  on = count(answers, true);
}
warm.sort((a, b) => a - b);
cpu.sort((a, b) => a - b);
// One flag explained: what a hover or a details view would ask for.
const oneName = [...model.flags.keys()][0] as string;
const explainMs: number[] = [];
for (let i = 0; i < 1_000; i++) explainMs.push(timed(() => new FlagEvaluator(model, context).explain(oneName, 'production')));
explainMs.sort((a, b) => a - b);

// The catastrophic pattern, as a REGEX constraint of a flag in the client API's form.
const hostile = 'a'.repeat(100_000) + 'b';
const regexState = {
  features: [{ name: 'regex', enabled: true, strategies: [{ name: 'default', constraints: [{ contextName: 'email', operator: 'REGEX', value: '(a+)+$' }] }] }],
};
const regexModel = modelOfClientState(regexState, 'production');
const regexContext = readContext({ properties: { email: hostile.slice(0, 1_000) } }).context;
// The context's budget cuts a value at 1,000 characters: the constraint is run on the whole string directly too.
const regexEvaluation = (): boolean => new FlagEvaluator(regexModel, regexContext).evaluate('regex', 'production').enabled === true;
const regexInContextMs = timed(() => regexEvaluation());
const longContext = { properties: new Map([['email', hostile]]) };
let longAnswer: unknown;
const regexLongMs = timed(() => (longAnswer = new FlagEvaluator(regexModel, longContext).evaluate('regex', 'production').enabled));
const native = 'a'.repeat(22) + 'b';
const nativeMs = timed(() => /(a+)+$/.test(native));

console.log(JSON.stringify({ machine: machine(), flags: flagCount, environments: ENVIRONMENTS.length, evaluations }, null, 0));
console.log(`model from the export files: ${round(buildMs)} ms`);
console.log(`every flag in every environment (${evaluations.toLocaleString('en-US')} evaluations, ${on.toLocaleString('en-US')} on):`);
console.log(`  first (checks compiled): ${round(firstMs)} ms`);
console.log(`  warm, ${repetitions} repetitions: median ${round(percentile(warm, 50))} ms, p99 ${round(percentile(warm, 99))} ms, max ${round(warm[warm.length - 1] as number)} ms`);
console.log(`  CPU time of the same: median ${round(percentile(cpu, 50))} ms, p99 ${round(percentile(cpu, 99))} ms`);
console.log(`one flag explained (a new evaluator each time): median ${round(percentile(explainMs, 50), 3)} ms, p99 ${round(percentile(explainMs, 99), 3)} ms`);
console.log(`catastrophic regex (a+)+$ with re2js: 1,001 characters (the context's bound) ${round(regexInContextMs)} ms, ${hostile.length.toLocaleString('en-US')} characters ${round(regexLongMs)} ms (matched: ${String(longAnswer)})`);
console.log(`  the native RegExp on 23 characters: ${round(nativeMs)} ms`);
