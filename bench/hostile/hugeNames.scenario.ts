/**
 * Finding 5: six flags whose names are 10 MB each (with a right-to-left override, zero-width and other invisible
 * characters in them) beside ordinary flags and a short name with a right-to-left override. A completion request in
 * an SDK call, then the diagnostics of a line with a typo and their quick fixes.
 */
import type { FeatureSummary } from '../../src/api/schemas';
import { Catalog } from '../../src/model/store/catalog';
import { TimeSlices } from '../../src/base/timeSlices';
import { completionSpotAt, FlagCompletions } from '../../src/model/code/flagCompletion';
import { FlagAnalyzer } from '../../src/model/code/flagDiagnostics';
import { flagQuickFixes } from '../../src/model/code/flagQuickFixes';
import type { HostileScenario } from './scenario';

const SIZE = 10_000_000;
const INVISIBLE = ['\u202e', '\u200b', '\u00ad', '\u2066', '\u{E0041}', '\u0085'];

function flag(name: string): FeatureSummary {
  return { name, project: 'default', type: 'release', environments: [{ name: 'production', enabled: true }] };
}

export const scenario: HostileScenario = {
  finding: 5,
  input: 'six flags with 10 MB names holding bidi and zero-width characters, and a short name with U+202E',
  // The flags as the worker hands them over from a server's answer: parsed, so each name is one flat string. Building
  // them is not what is measured; the store's work on them is.
  async setUp() {
    const flat = (text: string) => Buffer.from(text, 'utf16le').toString('utf16le');
    const huge = INVISIBLE.map((ch, i) => flag(flat(`huge-${i}${ch}${'x'.repeat(SIZE - 8)}`)));
    return [...huge, flag('new-checkout'), flag('new-check\u202eout'), flag('dark-mode')];
  },
  async run(_dir, _context, setUp) {
    // Built in time slices, as the store builds every catalog.
    const catalog = await Catalog.build(setUp as FeatureSummary[], new TimeSlices());
    const line = '  if (unleash.isEnabled("new-checkou")) {';
    const spot = completionSpotAt(line, line.indexOf('"') + 1);
    if (!spot) return 'no completion spot';
    const items = new FlagCompletions(catalog).items(spot);
    const longest = Math.max(...items.map((item) => item.label.length + item.insertText.length));
    const diagnostics = await new FlagAnalyzer(catalog).analyse(line, { sourceLabel: 'unleash.example.com', sourceKind: 'server' });
    const fixes = diagnostics.flatMap((diagnostic) => flagQuickFixes(diagnostic, { quote: '"' }));
    // Every character outside printable ASCII written as `\uXXXX`, so what would be inserted can be read.
    const shown = (text: string) => `"${text.slice(0, 120).replace(/[^\x20-\x7e]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`)}"`;
    const fix = (f: (typeof fixes)[number]) => (f.kind === 'replace' ? `${shown(f.title)} inserts ${shown(f.replacement)}` : shown(f.title));
    return `completion: ${items.length} items, longest label + insert ${longest} chars · ${diagnostics.map((d) => shown(d.message)).join(', ')} · fixes: ${fixes.map(fix).join(', ')}`;
  },
  expect: /^completion: 2 items, longest label \+ insert 24 chars · "No flag named "new-checkou" on unleash.example.com. Did you mean "new-checkout"\?" · fixes: "Change to "new-checkout"" inserts "new-checkout"$/,
};
