/**
 * Issue 39: a cloned repository's `.vscode/settings.json` names 50,000 SDK calls (`unleash.hover.sdkCalls`), and a
 * 2.2 MB source file is opened while nothing has needed the flags yet. The code side as activate() wires it (hovers,
 * CodeFlags, the diagnostics publisher) in the 'vscode' stand-in: the settings are read within the intake budget
 * (the first 100 calls, the rest named in the log), and the file is searched for a call in one pass over its
 * identifiers. The file calls only `customCall49999`, past the budget, at its very end: the whole file is searched
 * and no flags are read; a small file calling `customCall42` then does read them.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
// First the stand-in for 'vscode', then the services, loaded before the measured run (loading is not the operation).
import '../../test/support/installVscode';
import { FlagDiagnosticsPublisher } from '../../src/code/flagDiagnosticsPublisher';
import { registerFlagHovers } from '../../src/hovers/flagHoverProvider';
import { FlagStore } from '../../src/model/store/flagStore';
import { CodeFlags } from '../../src/services/codeFlags';
import { HoverSettingsByFolder } from '../../src/services/hoverSettingsByFolder';
import { installFakeVscode, Uri } from '../../test/support/fakeVscode';
import { listingSource } from '../../test/support/flagCatalog';
import { recordingLogger } from '../../test/support/recordingLogger';
import type { HostileScenario } from './scenario';

const CALLS = 50_000;
const FILE_BYTES = 2_200_000;

/** Ordinary TypeScript, with string literals and calls, but none of an SDK. */
function sourceFile(): string {
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < FILE_BYTES; i++) {
    const block = [
      `export function total${i}(items: Item[], options: Options = {}): number {`,
      `  const label = format('order-${i}', items.length, "units"); // not a flag: ${i}`,
      '  return items.reduce((sum, item) => sum + item.price * item.quantity * (options.rate ?? 1), 0);',
      '}',
      '',
    ].join('\n');
    parts.push(block);
    size += block.length;
  }
  parts.push("if (customCall49999('new-checkout')) {}\n");
  return parts.join('');
}

class Document {
  readonly uri: Uri;
  readonly languageId = 'typescript';
  readonly version = 1;
  constructor(file: string, private readonly text: string) {
    this.uri = Uri.file(file);
  }
  getText(): string {
    return this.text;
  }
}

export const scenario: HostileScenario = {
  finding: 'issue 39',
  input: `a workspace's \`unleash.hover.sdkCalls\` naming ${CALLS.toLocaleString('en-US')} calls; a 2.2 MB source file opened`,
  async prepare(dir) {
    writeFileSync(path.join(dir, 'settings.json'), JSON.stringify({ 'unleash.hover.sdkCalls': Array.from({ length: CALLS }, (_, i) => `customCall${i}`) }));
    writeFileSync(path.join(dir, 'orders.ts'), sourceFile());
    return {};
  },
  async run(dir) {
    const fake = installFakeVscode(dir);
    const settingsFile = JSON.parse(readFileSync(path.join(dir, 'settings.json'), 'utf8')) as Record<string, unknown>;
    fake.edit('workspace', settingsFile);
    const text = readFileSync(path.join(dir, 'orders.ts'), 'utf8');
    // What the editor does before the extension sees the document is not the operation.
    await new Promise((resolve) => setTimeout(resolve, 20));

    const { logger, lines } = recordingLogger();
    const store = new FlagStore(logger);
    await store.setSource(listingSource([]), 'ready');
    const settings = new HoverSettingsByFolder();
    const flags = new CodeFlags(store, logger, settings);
    const publisher = new FlagDiagnosticsPublisher(flags, logger);
    const hovers = registerFlagHovers({ store, settings, logger });
    const open = (file: string, content: string) => {
      const document = new Document(path.join(dir, file), content);
      fake.textDocuments.push(document as never);
      fake.documentOpened.fire(document);
    };
    try {
      open('orders.ts', text);
      const large = store.state === 'idle' ? 'no flags read' : 'flags read';
      await new Promise((resolve) => setTimeout(resolve, 5));
      open('checkout.ts', "if (customCall42('new-checkout')) {}\n");
      const small = store.state === 'idle' ? 'no flags read' : 'flags read';
      const warning = lines.find((line) => line.startsWith('Setting unleash.hover.sdkCalls'));
      return `log: "${warning}" · the 2.2 MB file calling customCall49999: ${large} · a file calling customCall42: ${small}`;
    } finally {
      hovers.dispose();
      publisher.dispose();
      flags.dispose();
      settings.dispose();
      store.dispose();
    }
  },
  expect:
    /^log: "Setting unleash\.hover\.sdkCalls: the entries past the first 100 \(50000 in all\); ignored\." · the 2\.2 MB file calling customCall49999: no flags read · a file calling customCall42: flags read$/,
};
