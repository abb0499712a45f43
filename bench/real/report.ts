/**
 * Prints the real-server tables of one or more saved runs together (e.g. 1,000 flags from one run, 10,000 from
 * another, when a busy machine made one run of both too long):
 *
 *   npx tsx bench/real/report.ts bench/results/real-<a>.json bench/results/real-<b>.json
 */
import * as fs from 'node:fs';
import { candidatesTable, growthTable, summaryTable, type SizeResult } from './tables';

const runs = process.argv.slice(2).map((file) => JSON.parse(fs.readFileSync(file, 'utf8')) as { date: string; results: SizeResult[]; profile?: { table: string } });
const results = runs.flatMap((run) => run.results).sort((a, b) => a.flags - b.flags);
console.log(`runs: ${runs.map((run) => run.date).join(', ')}\n`);
console.log(summaryTable(results));
console.log('');
console.log(candidatesTable(results));
console.log('');
console.log(growthTable(results));
for (const run of runs) if (run.profile) console.log(`\n${run.profile.table}`);
