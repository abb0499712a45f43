/**
 * The value classes and enums of the 'vscode' API, as plain implementations with VS Code's constructors, defaults
 * and enum numbers (src/vs/workbench/api/common/extHostTypes.ts), for fakeVscode.ts. They hold what the extension
 * hands to the editor, so tests read exactly what VS Code would receive. Left out: what no code of ours calls.
 */
import * as path from 'node:path';

export interface Disposable {
  dispose(): unknown;
}

export class DisposableStub {
  constructor(private readonly callback: () => void) {}
  static from(...items: Disposable[]): DisposableStub {
    return new DisposableStub(() => items.forEach((item) => item.dispose()));
  }
  dispose(): void {
    this.callback();
  }
}

export type Event<T> = (listener: (value: T) => unknown, thisArgs?: unknown, disposables?: Disposable[]) => Disposable;

/**
 * vscode.EventEmitter: listeners in the order they subscribed. Unlike VS Code, which logs a listener's error and
 * goes on, an error here reaches whoever fired, so that a test sees it.
 */
export class EventEmitter<T> {
  protected listeners: Array<(value: T) => unknown> = [];

  readonly event: Event<T> = (listener, thisArgs, disposables) => {
    const bound = thisArgs === undefined ? listener : listener.bind(thisArgs);
    this.listeners.push(bound);
    const subscription = new DisposableStub(() => (this.listeners = this.listeners.filter((l) => l !== bound)));
    disposables?.push(subscription);
    return subscription;
  };

  fire(value: T): void {
    for (const listener of [...this.listeners]) listener(value);
  }

  dispose(): void {
    this.listeners = [];
  }
}

export class CancellationTokenSource {
  private readonly cancelled = new EventEmitter<void>();
  readonly token = { isCancellationRequested: false, onCancellationRequested: this.cancelled.event };
  cancel(): void {
    if (this.token.isCancellationRequested) return;
    this.token.isCancellationRequested = true;
    this.cancelled.fire();
  }
  dispose(cancel = false): void {
    if (cancel) this.cancel();
    this.cancelled.dispose();
  }
}

export class Position {
  constructor(
    readonly line: number,
    readonly character: number,
  ) {
    if (line < 0 || character < 0) throw new Error('Illegal argument: line and character must be non-negative');
  }
  compareTo(other: Position): number {
    return this.line - other.line || this.character - other.character;
  }
  isBefore(other: Position): boolean {
    return this.compareTo(other) < 0;
  }
  isEqual(other: Position): boolean {
    return this.compareTo(other) === 0;
  }
}

/** vscode.Range: from two positions or four numbers, start never after end. */
export class InlayHintLabelPart {
  tooltip?: string | MarkdownString;
  command?: { command: string; title: string; arguments?: unknown[] };
  constructor(public value: string) {}
}

export class InlayHint {
  paddingLeft?: boolean;
  tooltip?: string | MarkdownString;
  constructor(
    public position: Position,
    public label: string | InlayHintLabelPart[],
  ) {}
}

export class Location {
  readonly range: Range;
  constructor(
    readonly uri: { readonly fsPath: string },
    rangeOrPosition: Range | Position,
  ) {
    this.range = rangeOrPosition instanceof Range ? rangeOrPosition : new Range(rangeOrPosition, rangeOrPosition);
  }
}

export class Range {
  readonly start: Position;
  readonly end: Position;
  constructor(start: Position, end: Position);
  constructor(startLine: number, startCharacter: number, endLine: number, endCharacter: number);
  constructor(a: Position | number, b: Position | number, c?: number, d?: number) {
    const from = typeof a === 'number' ? new Position(a, b as number) : a;
    const to = typeof a === 'number' ? new Position(c as number, d as number) : (b as Position);
    [this.start, this.end] = to.isBefore(from) ? [to, from] : [from, to];
  }
  get isEmpty(): boolean {
    return this.start.isEqual(this.end);
  }
  get isSingleLine(): boolean {
    return this.start.line === this.end.line;
  }
  contains(position: Position): boolean {
    return !position.isBefore(this.start) && !this.end.isBefore(position);
  }
}

/** vscode.MarkdownString: not trusted unless said (undefined), no theme icons, no HTML. */
export class MarkdownString {
  isTrusted?: boolean | { enabledCommands: readonly string[] } = undefined;
  supportHtml = false;
  constructor(
    public value = '',
    public supportThemeIcons = false,
  ) {}
  appendMarkdown(value: string): this {
    this.value += value;
    return this;
  }
}

/** vscode.Hover: `contents` is always a list. */
export class Hover {
  readonly contents: MarkdownString[];
  constructor(
    contents: MarkdownString | MarkdownString[],
    readonly range?: Range,
  ) {
    this.contents = Array.isArray(contents) ? contents : [contents];
  }
}

export const DiagnosticSeverity = { Error: 0, Warning: 1, Information: 2, Hint: 3 };
export const DiagnosticTag = { Unnecessary: 1, Deprecated: 2 };

export class Diagnostic {
  source?: string;
  code?: string | number;
  tags?: number[];
  constructor(
    readonly range: Range,
    readonly message: string,
    readonly severity: number = DiagnosticSeverity.Error,
  ) {}
}

export const CompletionItemKind = {
  Text: 0, Method: 1, Function: 2, Constructor: 3, Field: 4, Variable: 5, Class: 6, Interface: 7, Module: 8, Property: 9,
  Unit: 10, Value: 11, Enum: 12, Keyword: 13, Snippet: 14, Color: 15, File: 16, Reference: 17, Folder: 18,
  EnumMember: 19, Constant: 20, Struct: 21, Event: 22, Operator: 23, TypeParameter: 24,
};

export class CompletionItem {
  detail?: string;
  documentation?: string | MarkdownString;
  sortText?: string;
  filterText?: string;
  insertText?: string;
  range?: Range | { inserting: Range; replacing: Range };
  command?: { command: string; title: string; arguments?: unknown[] };
  constructor(
    public label: string,
    public kind?: number,
  ) {}
}

export class CompletionList {
  constructor(
    readonly items: CompletionItem[] = [],
    readonly isIncomplete = false,
  ) {}
}

export class TextEdit {
  constructor(
    readonly range: Range,
    readonly newText: string,
  ) {}
}

interface UriLike {
  toString(): string;
}

/** vscode.WorkspaceEdit: text edits per document, in the order they were made. */
export class WorkspaceEdit {
  private readonly edits = new Map<string, [UriLike, TextEdit[]]>();
  replace(uri: UriLike, range: Range, newText: string): void {
    const key = uri.toString();
    if (!this.edits.has(key)) this.edits.set(key, [uri, []]);
    this.edits.get(key)![1].push(new TextEdit(range, newText));
  }
  insert(uri: UriLike, position: Position, newText: string): void {
    this.replace(uri, new Range(position, position), newText);
  }
  delete(uri: UriLike, range: Range): void {
    this.replace(uri, range, '');
  }
  get size(): number {
    return this.edits.size;
  }
  entries(): Array<[UriLike, TextEdit[]]> {
    return [...this.edits.values()];
  }
}

/** vscode.CodeActionKind: dotted, hierarchical kinds. */
export class CodeActionKind {
  static readonly Empty = new CodeActionKind('');
  static readonly QuickFix = new CodeActionKind('quickfix');
  static readonly Refactor = new CodeActionKind('refactor');
  static readonly Source = new CodeActionKind('source');
  private constructor(readonly value: string) {}
  append(part: string): CodeActionKind {
    return new CodeActionKind(this.value ? `${this.value}.${part}` : part);
  }
  contains(other: CodeActionKind): boolean {
    return this.value === '' || other.value === this.value || other.value.startsWith(`${this.value}.`);
  }
}

export class CodeAction {
  edit?: WorkspaceEdit;
  command?: { command: string; title: string; arguments?: unknown[] };
  diagnostics?: Diagnostic[];
  isPreferred?: boolean;
  constructor(
    readonly title: string,
    readonly kind?: CodeActionKind,
  ) {}
}

export class CodeLens {
  constructor(
    readonly range: Range,
    public command?: { command: string; title: string; arguments?: unknown[] },
  ) {}
}

export class ThemeColor {
  constructor(readonly id: string) {}
}

export class ThemeIcon {
  constructor(
    readonly id: string,
    readonly color?: ThemeColor,
  ) {}
}

export const TreeItemCollapsibleState = { None: 0, Collapsed: 1, Expanded: 2 };

export class TreeItem {
  id?: string;
  description?: string;
  tooltip?: string | MarkdownString;
  contextValue?: string;
  iconPath?: ThemeIcon;
  command?: { command: string; title: string; arguments?: unknown[] };
  accessibilityInformation?: { label: string; role?: string };
  /** As VS Code: a Uri given instead of a label is the item's resource (its label is the file's name). */
  resourceUri?: Uri;
  label: string;
  constructor(
    labelOrUri: string | Uri,
    public collapsibleState: number = TreeItemCollapsibleState.None,
  ) {
    if (labelOrUri instanceof Uri) this.resourceUri = labelOrUri;
    this.label = labelOrUri instanceof Uri ? '' : labelOrUri;
  }
}

/**
 * vscode.Uri, parsed as VS Code parses it (RFC 3986, components percent-decoded). One simplification: `toString()`
 * does not percent-encode, as VS Code's `toString(true)`.
 */
export class Uri {
  private constructor(
    readonly scheme: string,
    readonly authority: string,
    readonly path: string,
    readonly query: string,
    readonly fragment: string,
  ) {}

  static parse(value: string, strict = false): Uri {
    const match = /^(([^:/?#]+?):)?(\/\/([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?/.exec(value)!;
    if (strict && !match[2]) throw new Error(`[UriError]: Scheme is missing: {scheme: "", path: "${value}"}`);
    const decode = (part: string | undefined) => decodeURIComponent(part ?? '');
    return new Uri(match[2] || 'file', decode(match[4]), decode(match[5]), decode(match[7]), decode(match[9]));
  }

  static file(fsPath: string): Uri {
    return new Uri('file', '', fsPath, '', '');
  }

  static from(parts: { scheme: string; authority?: string; path?: string; query?: string; fragment?: string }): Uri {
    return new Uri(parts.scheme, parts.authority ?? '', parts.path ?? '', parts.query ?? '', parts.fragment ?? '');
  }

  static joinPath(base: Uri, ...segments: string[]): Uri {
    return new Uri(base.scheme, base.authority, path.posix.join(base.path, ...segments), base.query, base.fragment);
  }

  get fsPath(): string {
    return this.path;
  }

  toString(): string {
    const authority = this.authority || this.scheme === 'file' ? `//${this.authority}` : '';
    return `${this.scheme}:${authority}${this.path}${this.query ? `?${this.query}` : ''}${this.fragment ? `#${this.fragment}` : ''}`;
  }
}

/** vscode.RelativePattern: a glob matched against paths relative to its base (a folder, or a workspace folder). */
export class RelativePattern {
  readonly baseUri: Uri;
  readonly base: string;

  constructor(
    base: Uri | { uri: Uri } | string,
    readonly pattern: string,
  ) {
    this.baseUri = typeof base === 'string' ? Uri.file(base) : base instanceof Uri ? base : base.uri;
    this.base = this.baseUri.fsPath;
  }
}
