/**
 * What a large listing answer costs after its last byte, step by step (bench/README.md, "This round (2026-11-28)"):
 * the worker's parse, schema check, intake walk and parts, then the host's parse of the parts in slices, beside the
 * host parsing the same bytes in slices itself. 10,000 flags of bench/data.ts as one project's listing (8 MB); three
 * repetitions, the first warming up.
 *
 *   npx tsx bench/answerSteps.bench.ts [--flags 10000]
 */
import { takeOnHost } from '../src/api/answerOnHost';
import { ANSWER_SCHEMAS } from '../src/api/answerSchemas';
import { validate } from '../src/api/validate';
import { CutLog, cutNested } from '../src/base/intakeCuts';
import { fromParts, toParts } from '../src/base/jsonParts';
import { JsonScan } from '../src/base/jsonScan';
import { TimeSlices } from '../src/base/timeSlices';
import { generateDataset } from './data';

async function main(): Promise<void> {
  const at = process.argv.indexOf('--flags');
  const flags = at > 0 ? Number(process.argv[at + 1]) : 10_000;
  const bytes = new TextEncoder().encode(JSON.stringify({ features: generateDataset(flags).searchItems }));
  console.log(`${flags} flags, ${(bytes.length / 2 ** 20).toFixed(1)} MiB; load average ${(await import('node:os')).loadavg()[0]?.toFixed(2)}`);
  for (let rep = 1; rep <= 3; rep++) {
    let last = performance.now();
    const lap = (): string => {
      const now = performance.now();
      const ms = (now - last).toFixed(1);
      last = now;
      return ms;
    };
    const body = JSON.parse(new TextDecoder().decode(bytes)) as Record<string, unknown>;
    const parse = lap();
    const checked = validate(ANSWER_SCHEMAS.projectFeatures, body);
    const check = lap();
    await cutNested(body, TimeSlices.unsliced(), new CutLog());
    const walk = lap();
    const parts = toParts(checked.success ? checked.data : body);
    const split = lap();
    await fromParts(parts, new TimeSlices());
    const joined = lap();
    const scan = new JsonScan();
    for (let at = 0; at < bytes.length; at += 64 * 1024) scan.feed(bytes.subarray(at, at + 64 * 1024));
    const shape = scan.finish();
    const scanned = lap();
    const taken = shape && (await takeOnHost(bytes, shape, 'projectFeatures', new TimeSlices()));
    const batched = lap();
    if (!taken) throw new Error('the listing was not taken on the host');
    console.log(`rep ${rep}: within the budget, on the host: scan ${scanned} ms, batches parsed and checked ${batched} ms · native JSON.parse ${parse} ms · the worker's path: schema ${check} ms, intake walk ${walk} ms, parts ${split} ms, then the host's parse of the parts ${joined} ms`);
  }
}

void main();
