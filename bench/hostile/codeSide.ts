/**
 * The code features as the extension runs them, for the hostile scenarios whose input is a document: the store of the
 * workspace's export files (offline.ts), CodeFlags and the diagnostics publisher over it, and a document opened in
 * the editor (the 'vscode' stand-in's event). Loaded before the measured run.
 */
// First the stand-in for 'vscode', then the modules that use it.
import '../../test/support/installVscode';
import { CodeFlags } from '../../src/services/codeFlags';
import { HoverSettingsByFolder } from '../../src/services/hoverSettingsByFolder';
import { FlagDiagnosticsPublisher } from '../../src/code/flagDiagnosticsPublisher';
import { FlagCompletionProvider } from '../../src/code/flagCompletionProvider';
import type { FlagStore } from '../../src/model/store/flagStore';
import { installFakeVscode, Position, Uri } from '../../test/support/fakeVscode';
import { recordingLogger } from '../../test/support/recordingLogger';

/** A text document as the editor hands it to the providers. */
class FakeDocument {
  readonly version = 1;
  readonly languageId = 'typescript';
  readonly uri: ReturnType<typeof Uri.file>;
  constructor(
    path: string,
    private readonly text: string,
  ) {
    this.uri = Uri.file(path);
  }
  getText(): string {
    return this.text;
  }
  lineAt(line: number): { text: string } {
    return { text: this.text.split('\n')[line] ?? '' };
  }
}

/**
 * Opens `text` as `path` in the workspace `folder` with diagnostics on the store's catalog; answers the messages the
 * Problems panel lists.
 */
export async function problemsOf(store: FlagStore, folder: string, path: string, text: string): Promise<string[]> {
  const fake = installFakeVscode(folder);
  const { logger } = recordingLogger();
  const flags = new CodeFlags(store, logger, new HoverSettingsByFolder());
  const publisher = new FlagDiagnosticsPublisher(flags, logger);
  const document = new FakeDocument(path, text);
  fake.textDocuments.push(document as never);
  fake.documentOpened.fire(document);
  await publisher.settled();
  // Names held back for a lookup among archived flags publish once it answers (the store's status changes).
  await new Promise((resolve) => setTimeout(resolve, 200));
  await publisher.settled();
  const messages = fake.diagnostics(document.uri.toString()).map((diagnostic) => diagnostic.message);
  publisher.dispose();
  flags.dispose();
  return messages;
}

/** The completion items offered at the end of `line` (a document of the workspace `folder`). */
export async function completionsOf(store: FlagStore, folder: string, line: string): Promise<number> {
  installFakeVscode(folder);
  const { logger } = recordingLogger();
  const flags = new CodeFlags(store, logger, new HoverSettingsByFolder());
  const provider = new FlagCompletionProvider(flags);
  const list = await provider.provideCompletionItems(new FakeDocument(`${folder}/src/new.ts`, line) as never, new Position(0, line.length) as never);
  flags.dispose();
  return list?.items.length ?? 0;
}
