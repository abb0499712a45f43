/**
 * Inlay hints after each flag name code reads (`FlagHints`): the state in each environment, short, with the full
 * hover as the tooltip and a click that opens the flag's details. Through VS Code's InlayHintsProvider, so
 * `editor.inlayHints.enabled` and its keyboard toggle apply; `unleash.inlayHints.enabled` turns off only these.
 * Refreshed when the flags or the settings change; never a request to the server.
 */
import * as vscode from 'vscode';
import { Commands, SETTINGS_SECTION, Settings } from '../base/constants';
import { FlagHints, type FlagHint } from '../model/code/flagHints';
import { hoverMarkdown } from '../model/content/hoverContent';
import { escapeMarkdown } from '../model/text/markdown';
import { Emitter } from '../base/emitter';
import type { CodeFlags } from '../services/codeFlags';
import { DisposableStore } from '../services/disposables';
import { registerForCodeLanguages } from './languageRegistration';

/** Lines a single request covers at most (VS Code asks for the visible range, plus a margin). */
const MAX_LINES = 5_000;

class FlagInlayHint extends vscode.InlayHint {
  constructor(
    readonly hint: FlagHint,
    /** `unleash.environments` of the document's folder, for the tooltip's hover. */
    readonly environments: readonly string[],
  ) {
    const part = new vscode.InlayHintLabelPart(hint.label);
    part.command = { command: Commands.showFlagDetails, title: vscode.l10n.t('Show Flag Details'), arguments: [{ project: hint.flag.project ?? '', name: hint.flag.name }] };
    super(new vscode.Position(hint.line, hint.character), [part]);
    this.paddingLeft = true;
  }
}

export class FlagInlayHintsProvider implements vscode.InlayHintsProvider<FlagInlayHint>, vscode.Disposable {
  private readonly changed = new Emitter<void>();
  readonly onDidChangeInlayHints = this.changed.event;
  private readonly hintsByNaming = new Map<string, FlagHints>();
  private readonly owned: DisposableStore;

  constructor(private readonly flags: CodeFlags) {
    const refresh = () => {
      this.hintsByNaming.clear();
      this.changed.fire(undefined);
    };
    this.owned = new DisposableStore(
      this.changed,
      flags.store.onDidChange(refresh),
      flags.onDidChangeOptions(refresh),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration(`${SETTINGS_SECTION}.${Settings.inlayHintsEnabled}`)) refresh();
      }),
    );
  }

  provideInlayHints(document: vscode.TextDocument, range: vscode.Range, token: vscode.CancellationToken): FlagInlayHint[] {
    if (!this.flags.ready || !hintsEnabled()) return [];
    const hints = this.hintsFor(document);
    const found: FlagInlayHint[] = [];
    const last = Math.min(range.end.line, range.start.line + MAX_LINES, document.lineCount - 1);
    for (let line = range.start.line; line <= last && !token.isCancellationRequested; line++) {
      for (const hint of hints.line(document.lineAt(line).text, line)) found.push(new FlagInlayHint(hint, hints.options.environments ?? []));
    }
    return found;
  }

  /**
   * The tooltip, built only when the mouse rests on a hint: the state in words (what screen readers read), then the
   * flag's hover, its details read as the hover reads them (shared with it, cached by the store).
   */
  async resolveInlayHint(item: FlagInlayHint, token: vscode.CancellationToken): Promise<FlagInlayHint> {
    const { store } = this.flags;
    const summaries = store.catalog.byName(item.hint.flag.name);
    const details = await Promise.all(summaries.map((summary) => store.feature(summary.project ?? '', summary.name, token).catch(() => undefined)));
    const matches = summaries.map((summary, i) => {
      const feature = details[i];
      return feature ? { summary, details: feature } : { summary, detailsState: 'unavailable' as const };
    });
    const source = store.currentSource;
    const hover = hoverMarkdown({ matches, sourceLabel: source?.label ?? '', webUrl: source?.webUrl?.bind(source), now: new Date(), environments: item.environments });
    const markdown = new vscode.MarkdownString(`${escapeMarkdown(item.hint.words)}\n\n---\n\n${hover}`);
    markdown.isTrusted = { enabledCommands: [Commands.revealFlag, Commands.copyFlagName, Commands.showFlagDetails] };
    markdown.supportHtml = false;
    markdown.supportThemeIcons = false;
    const [part] = item.label as vscode.InlayHintLabelPart[];
    if (part) part.tooltip = markdown;
    return item;
  }

  private hintsFor(document: vscode.TextDocument): FlagHints {
    const options = { ...this.flags.naming(document), environments: this.flags.environments(document) };
    const key = JSON.stringify(options);
    let hints = this.hintsByNaming.get(key);
    if (hints?.catalog !== this.flags.store.catalog) {
      hints = new FlagHints(this.flags.store.catalog, options);
      this.hintsByNaming.set(key, hints);
    }
    return hints;
  }

  dispose(): void {
    this.owned.dispose();
  }
}

/** `unleash.inlayHints.enabled` is the window's (no folder's): VS Code logs a warning when one is read for a document. */
function hintsEnabled(): boolean {
  return vscode.workspace.getConfiguration(SETTINGS_SECTION).get<boolean>(Settings.inlayHintsEnabled, true) !== false;
}

export function registerFlagInlayHints(flags: CodeFlags): vscode.Disposable {
  const provider = new FlagInlayHintsProvider(flags);
  return new DisposableStore(registerForCodeLanguages(flags, (selector) => vscode.languages.registerInlayHintsProvider(selector, provider)), provider);
}
