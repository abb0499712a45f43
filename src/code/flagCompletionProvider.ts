/**
 * Completion of flag names inside SDK calls (`isEnabled("` …). Reads the catalog the store holds (the first request
 * for a flag name starts reading it, and waits); the items' text is built once per catalog (`FlagCompletions`), the
 * documentation only for the focused item.
 */
import * as vscode from 'vscode';
import { registerForCodeLanguages } from './languageRegistration';
import { Commands } from '../base/constants';
import { completionSpotAt, type FlagCompletions } from '../model/code/flagCompletion';
import { findFlagReferences } from '../model/code/flagReferences';
import type { CodeFlags } from '../services/codeFlags';
import { DisposableStore } from '../services/disposables';

/** Lines longer than this get no completion (minified code). */
const MAX_LINE = 20_000;

export class FlagCompletionProvider implements vscode.CompletionItemProvider {
  /** The completions of the last list shown, which its items' documentation is read from. */
  private shown: FlagCompletions | undefined;

  /** Projects of the flags a document reads, by document and version. */
  private projectsCache: { uri: string; version: number; projects: Set<string> } | undefined;

  constructor(private readonly flags: CodeFlags) {}

  async provideCompletionItems(
    document: vscode.TextDocument,
    position: vscode.Position,
    token?: vscode.CancellationToken,
  ): Promise<vscode.CompletionList | undefined> {
    if (!this.flags.options.completion || !this.flags.store.currentSource) return undefined;
    const line = document.lineAt(position.line).text;
    if (line.length > MAX_LINE) return undefined;
    if (!this.flags.covers(document)) return undefined;
    const spot = completionSpotAt(line, position.character, this.flags.naming(document).sdkCalls);
    if (!spot) return undefined;
    // Asked for a flag name: the first time, this reads the flag list.
    if (!this.flags.ready) await this.flags.store.load(token);
    if (!this.flags.ready || token?.isCancellationRequested) return undefined;
    const completions = await this.flags.completions(document);
    if (token?.isCancellationRequested) return undefined;
    this.shown = completions;
    const inserting = new vscode.Range(position.line, spot.start, position.line, position.character);
    const replacing = new vscode.Range(position.line, spot.start, position.line, spot.end);
    // A large catalog offers its best-ranked names only, as an incomplete list: VS Code asks again as typing goes on.
    const offered = completions.list(spot, { preferredProjects: this.projectsOf(document), recent: this.flags.recent });
    const items = offered.items.map((data) => {
      const item = new vscode.CompletionItem(data.label, vscode.CompletionItemKind.Constant);
      item.detail = data.detail;
      item.sortText = data.sortText;
      item.filterText = data.label;
      item.insertText = data.insertText;
      item.range = { inserting, replacing };
      item.command = { command: Commands.recordFlagUse, title: vscode.l10n.t('Remember flag'), arguments: [data.label] };
      return item;
    });
    return new vscode.CompletionList(items, offered.incomplete);
  }

  async resolveCompletionItem(item: vscode.CompletionItem): Promise<vscode.CompletionItem> {
    const name = typeof item.label === 'string' ? item.label : item.label.label;
    // The list the item came from: its folder's choice of environments.
    const markdown = new vscode.MarkdownString((this.shown ?? (await this.flags.completions())).documentation(name), false);
    markdown.isTrusted = false;
    markdown.supportHtml = false;
    item.documentation = markdown;
    return item;
  }

  private projectsOf(document: vscode.TextDocument): Set<string> {
    const uri = document.uri.toString();
    const cached = this.projectsCache;
    if (cached && cached.uri === uri && cached.version === document.version) return cached.projects;
    const projects = new Set<string>();
    const catalog = this.flags.store.catalog;
    const options = this.flags.naming(document);
    // Each name once: a name used many times and held by many projects costs uses + projects, not their product.
    const names = new Set<string>();
    for (const reference of findFlagReferences(document.getText(), this.flags.analyzer().nameIndex, options)) {
      if (reference.name !== undefined) names.add(reference.name);
    }
    for (const name of names) for (const flag of catalog.byName(name)) projects.add(flag.project ?? '');
    this.projectsCache = { uri, version: document.version, projects };
    return projects;
  }
}

/**
 * Registers completion for the languages of `unleash.hover.languages` (again when they change), and the command an
 * accepted item runs to remember its name for ranking.
 */
export function registerFlagCompletion(flags: CodeFlags): vscode.Disposable {
  const provider = new FlagCompletionProvider(flags);
  return new DisposableStore(
    registerForCodeLanguages(flags, (selector) => vscode.languages.registerCompletionItemProvider(selector, provider, '"', "'", '`')),
    vscode.commands.registerCommand(Commands.recordFlagUse, (name: unknown) => flags.recordUse(name)),
  );
}
