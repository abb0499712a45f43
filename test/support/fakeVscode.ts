/**
 * The one stand-in for the 'vscode' module in unit tests, and the only place that patches Node's module loader.
 * `installFakeVscode()` makes `require('vscode')` return it; call it before requiring any module of src/ that
 * imports 'vscode', and again for a fresh editor (modules loaded once read through to the latest one).
 *
 * The value classes (Range, MarkdownString, TreeItem…) are VS Code's, in vscodeClasses.ts. Around them, an editor
 * that records what a user would see and answers from a script: settings in three scopes (default, user, workspace)
 * with `inspect()`, workspace trust, files on the real disk, secret storage and global state in memory; messages,
 * status bar texts and items, tree views, quick picks, opened documents and links, the clipboard, diagnostics and
 * registered language providers.
 */
import { promises as fsp } from 'node:fs';
import Module from 'node:module';
import * as path from 'node:path';
import * as l10n from '@vscode/l10n';
import { capabilities, contributes } from '../../package.json';
import * as classes from './vscodeClasses';
import { Diagnostic, DisposableStub as Disposable, EventEmitter, Uri } from './vscodeClasses';

export * from './vscodeClasses';

/** Each `unleash.*` setting's scope, as the manifest declares it (VS Code's default is `window`). */
const SETTING_SCOPES = new Map<string, string>(
  Object.entries(contributes.configuration.properties).map(([id, property]) => [id, 'scope' in property ? property.scope : 'window']),
);

/**
 * The settings whose workspace values VS Code ignores in Restricted Mode (the manifest's
 * `restrictedConfigurations`): neither `get` nor `inspect` answers them there, as in VS Code; other settings keep
 * their workspace values.
 */
const RESTRICTED = new Set<string>(capabilities.untrustedWorkspaces.restrictedConfigurations);

/**
 * What VS Code's `WorkspaceConfiguration.get` logs a warning for, thrown here so that a test fails: a `resource`
 * setting read with no scope at all (`null` is "any resource"), a `window` setting read for a resource.
 */
function checkScope(id: string, scope: Uri | null | undefined): void {
  const declared = SETTING_SCOPES.get(id);
  if (declared === 'resource' && scope === undefined) throw new Error(`${id} (resource scoped) read without a resource: VS Code warns; pass a URI or null`);
  if (declared === 'window' && scope) throw new Error(`${id} (window scoped) read for ${scope.toString()}: VS Code warns; read it without a scope`);
}

interface ShownMessage {
  kind: 'info' | 'warning' | 'error';
  message: string;
  modal: boolean;
  detail?: string;
  buttons: string[];
}

export interface FakeTreeView<T = unknown> {
  id: string;
  options: { treeDataProvider: unknown; showCollapseAll?: boolean };
  description?: string;
  message?: string;
  selection: T[];
  /** Every `reveal()`, in order. */
  revealed: Array<{ node: T; options: unknown }>;
  reveal(node: T, options?: unknown): Promise<void>;
  /** Whether the view shows; `setVisible` is the user opening or closing it. */
  visible: boolean;
  onDidChangeVisibility: classes.Event<{ visible: boolean }>;
  setVisible(visible: boolean): void;
  dispose(): void;
}

interface FakeStatusBarItem {
  id?: string;
  alignment: number;
  priority?: number;
  name?: string;
  text: string;
  tooltip?: string;
  backgroundColor?: classes.ThemeColor;
  command?: string;
  /** What a screen reader says. */
  accessibilityInformation?: { label: string; role?: string };
  /** Whether it shows: after `show()`, until `hide()` or `dispose()`. */
  visible: boolean;
  show(): void;
  hide(): void;
  dispose(): void;
}

interface ProviderRegistration {
  selector: unknown;
  provider: unknown;
  disposed: boolean;
}

interface TextDocumentLike {
  uri: Uri;
  languageId?: string;
}

type DocumentSelector = string | { language?: string; scheme?: string; pattern?: unknown } | DocumentSelector[];

/** VS Code's score of a document against a selector (0: no match); glob patterns are not supported here. */
function matchScore(selector: DocumentSelector, document: TextDocumentLike): number {
  if (Array.isArray(selector)) return Math.max(0, ...selector.map((part) => matchScore(part, document)));
  if (typeof selector === 'string') return selector === document.languageId ? 10 : selector === '*' ? 5 : 0;
  if (selector.pattern !== undefined) throw new Error('fakeVscode: document selectors with a pattern are not supported');
  let score = 0;
  for (const [wanted, actual] of [[selector.scheme, document.uri.scheme], [selector.language, document.languageId]]) {
    if (wanted === undefined) continue;
    if (wanted === actual) score = 10;
    else if (wanted === '*') score = Math.max(score, 5);
    else return 0;
  }
  return score;
}

/**
 * A glob as VS Code reads one (src/vs/base/common/glob.ts): `*` and `?` within one path segment, `**` across
 * segments, `{a,b}` alternatives; the whole path must match.
 */
function globRegExp(glob: string): RegExp {
  let out = '';
  let braces = 0;
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i] as string;
    if (ch === '*' && glob[i + 1] === '*') {
      const slash = glob[i + 2] === '/';
      out += slash ? '(?:.*/)?' : '.*';
      i += slash ? 2 : 1;
    } else if (ch === '*') out += '[^/]*';
    else if (ch === '?') out += '[^/]';
    else if (ch === '{') {
      out += '(?:';
      braces++;
    } else if (ch === '}' && braces > 0) {
      out += ')';
      braces--;
    } else if (ch === ',' && braces > 0) out += '|';
    else out += ch.replace(/[.+^$()|[\]\\{}]/g, '\\$&');
  }
  return new RegExp(`^${out}$`);
}

type FileEventKind = 'create' | 'change' | 'delete';

/** A file system watcher: what it was asked to watch, and the events it fires. */
interface FakeWatcher {
  pattern: string | classes.RelativePattern;
  ignored: Record<FileEventKind, boolean>;
  events: Record<FileEventKind, EventEmitter<Uri>>;
  disposed: boolean;
}

/**
 * Whether a watcher reports a change at `fsPath`, as VS Code decides: a RelativePattern is matched against the path
 * relative to its base (inside it only); a plain string glob against the absolute path.
 */
function watches(pattern: FakeWatcher['pattern'], fsPath: string): boolean {
  if (typeof pattern === 'string') return globRegExp(pattern).test(fsPath);
  const relative = path.relative(pattern.base, fsPath);
  if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) return false;
  return globRegExp(pattern.pattern).test(relative.split(path.sep).join('/'));
}

class CountedEmitter<T> extends EventEmitter<T> {
  get listenerCount(): number {
    return this.listeners.length;
  }
}

type ContentProvider = { provideTextDocumentContent(uri: Uri, token: unknown): string | undefined | Promise<string | undefined> };

type Scope = 'user' | 'workspace';

const FileType = { Unknown: 0, File: 1, Directory: 2, SymbolicLink: 64 };

const noCancellation = { isCancellationRequested: false, onCancellationRequested: () => new Disposable(() => undefined) };

/** A fresh editor; `folder`, when given, is the one workspace folder. */
export function createFakeVscode(options: { folder?: string } = {}) {
  const user = new Map<string, unknown>();
  const workspaceScope = new Map<string, unknown>();
  /** Settings of one workspace folder (resource scope), by folder path: they win inside that folder. */
  const folderScopes = new Map<string, Map<string, unknown>>();
  const configChanged = new CountedEmitter<{ affectsConfiguration(section: string): boolean }>();
  const trustGranted = new EventEmitter<void>();
  const secrets = new Map<string, string>();
  const secretChanged = new EventEmitter<{ key: string }>();
  const globalState = new Map<string, unknown>();
  const diagnosticCollections = new Set<Map<string, classes.Diagnostic[]>>();
  const foldersChanged = new EventEmitter<{ added: unknown[]; removed: unknown[] }>();

  /** What the editor shows and was asked, for tests to read; the script (`answers`, `pick`) for tests to write. */
  const record = {
    messages: [] as ShownMessage[],
    /** Answers for input boxes and for messages with buttons, taken in order; undefined = dismissed. */
    answers: [] as Array<string | undefined>,
    /** The item a quick pick returns (the first by default; undefined = dismissed). */
    pick: (items: readonly unknown[]): unknown => items[0],
    quickPicks: [] as Array<{ items: unknown[]; options: unknown }>,
    /** Every input box shown: its title and the value it held when it opened. */
    inputBoxes: [] as Array<{ title?: string; value?: string }>,
    /** Every file system watcher created (`workspace.createFileSystemWatcher`), disposed ones included. */
    watchers: [] as FakeWatcher[],
    /** Every file read through `workspace.fs.readFile`. */
    reads: [] as string[],
    commands: new Map<string, (...args: unknown[]) => unknown>(),
    executed: [] as Array<{ id: string; args: unknown[] }>,
    statusBarMessages: [] as string[],
    statusBarItems: [] as FakeStatusBarItem[],
    /** How many times progress was shown. */
    progress: 0,
    treeViews: [] as FakeTreeView[],
    clipboard: '',
    /** Every address opened with `env.openExternal`. */
    opened: [] as string[],
    contentProviders: new Map<string, ContentProvider>(),
    /** The URIs of the documents shown in an editor, in order. */
    shownDocuments: [] as string[],
    /** The open documents (`workspace.textDocuments`). */
    textDocuments: [] as TextDocumentLike[],
    /** The lines of the log output channels (`window.createOutputChannel(name, { log: true })`), as `level: text`. */
    logLines: [] as string[],
    documentOpened: new EventEmitter<unknown>(),
    documentChanged: new EventEmitter<unknown>(),
    documentClosed: new EventEmitter<unknown>(),
    /** What the References view was given (`setInput` of the references-view extension); undefined: not installed. */
    referencesView: { inputs: [] as unknown[] } as { inputs: unknown[] } | undefined,
    providers: {
      hover: [] as ProviderRegistration[],
      completion: [] as ProviderRegistration[],
      codeActions: [] as ProviderRegistration[],
      inlayHints: [] as ProviderRegistration[],
      definition: [] as ProviderRegistration[],
      references: [] as ProviderRegistration[],
      codeLenses: [] as ProviderRegistration[],
    },
  };

  const fire = (ids: string[]) =>
    configChanged.fire({ affectsConfiguration: (section) => ids.some((id) => id === section || id.startsWith(`${section}.`)) });

  /** Several settings in one edit of a settings file: one change event. */
  const edit = (scope: Scope, values: Record<string, unknown>) => {
    for (const [id, value] of Object.entries(values)) (scope === 'user' ? user : workspaceScope).set(id, value);
    fire(Object.keys(values));
  };

  const show = (kind: ShownMessage['kind']) => async (message: string, ...rest: unknown[]) => {
    const first = rest[0];
    const modal = typeof first === 'object' && first !== null && (first as { modal?: boolean }).modal === true;
    const detail = modal ? (first as { detail?: string }).detail : undefined;
    const buttons = rest.filter((item): item is string => typeof item === 'string');
    record.messages.push({ kind, message, modal, detail, buttons });
    return buttons.length ? record.answers.shift() : undefined;
  };

  const register = (list: ProviderRegistration[]) => (selector: unknown, provider: unknown) => {
    const entry: ProviderRegistration = { selector, provider, disposed: false };
    list.push(entry);
    return new Disposable(() => (entry.disposed = true));
  };

  const vscode = {
    Disposable,
    EventEmitter,
    CancellationTokenSource: classes.CancellationTokenSource,
    Position: classes.Position,
    Range: classes.Range,
    Location: classes.Location,
    InlayHint: classes.InlayHint,
    InlayHintLabelPart: classes.InlayHintLabelPart,
    MarkdownString: classes.MarkdownString,
    Hover: classes.Hover,
    Diagnostic,
    DiagnosticSeverity: classes.DiagnosticSeverity,
    DiagnosticTag: classes.DiagnosticTag,
    CompletionItem: classes.CompletionItem,
    CompletionItemKind: classes.CompletionItemKind,
    CompletionList: classes.CompletionList,
    TextEdit: classes.TextEdit,
    WorkspaceEdit: classes.WorkspaceEdit,
    CodeAction: classes.CodeAction,
    CodeActionKind: classes.CodeActionKind,
    CodeLens: classes.CodeLens,
    ThemeColor: classes.ThemeColor,
    ThemeIcon: classes.ThemeIcon,
    TreeItem: classes.TreeItem,
    TreeItemCollapsibleState: classes.TreeItemCollapsibleState,
    Uri,
    RelativePattern: classes.RelativePattern,
    FileType,
    StatusBarAlignment: { Left: 1, Right: 2 },
    ConfigurationTarget: { Global: 1, Workspace: 2, WorkspaceFolder: 3 },
    ProgressLocation: { SourceControl: 1, Window: 10, Notification: 15 },
    workspace: {
      isTrusted: true,
      workspaceFolders: (options.folder ? [{ uri: Uri.file(options.folder), name: path.basename(options.folder), index: 0 }] : undefined) as
        | Array<{ uri: Uri; name: string; index: number }>
        | undefined,
      textDocuments: record.textDocuments,
      getWorkspaceFolder(uri: Uri) {
        return vscode.workspace.workspaceFolders?.find((folder) => uri.fsPath === folder.uri.fsPath || uri.fsPath.startsWith(folder.uri.fsPath + path.sep));
      },
      getConfiguration(section: string, scope?: Uri | null) {
        const id = (key: string) => `${section}.${key}`;
        const folder = scope && vscode.workspace.getWorkspaceFolder(scope);
        const own = folder && folderScopes.get(folder.uri.fsPath);
        return {
          get<T>(key: string, fallback?: T): T | undefined {
            const full = id(key);
            checkScope(full, scope);
            const fromWorkspace = vscode.workspace.isTrusted || !RESTRICTED.has(full);
            if (fromWorkspace && own?.has(full)) return own.get(full) as T;
            if (fromWorkspace && workspaceScope.has(full)) return workspaceScope.get(full) as T;
            return user.has(full) ? (user.get(full) as T) : fallback;
          },
          inspect<T>(key: string) {
            const full = id(key);
            const fromWorkspace = vscode.workspace.isTrusted || !RESTRICTED.has(full);
            return {
              key: full,
              globalValue: user.get(full) as T | undefined,
              workspaceValue: fromWorkspace ? (workspaceScope.get(full) as T | undefined) : undefined,
            };
          },
          async update(key: string, value: unknown, target: number) {
            (target === 1 ? user : workspaceScope).set(id(key), value);
            fire([id(key)]);
          },
        };
      },
      onDidChangeConfiguration: configChanged.event,
      onDidGrantWorkspaceTrust: trustGranted.event,
      onDidChangeWorkspaceFolders: foldersChanged.event,
      onDidOpenTextDocument: record.documentOpened.event,
      onDidChangeTextDocument: record.documentChanged.event,
      onDidCloseTextDocument: record.documentClosed.event,
      /** A watcher that `fileEvent` fires as VS Code would (`watches`). */
      createFileSystemWatcher(pattern: FakeWatcher['pattern'], ignoreCreate = false, ignoreChange = false, ignoreDelete = false) {
        const watcher: FakeWatcher = {
          pattern,
          ignored: { create: ignoreCreate, change: ignoreChange, delete: ignoreDelete },
          events: { create: new EventEmitter<Uri>(), change: new EventEmitter<Uri>(), delete: new EventEmitter<Uri>() },
          disposed: false,
        };
        record.watchers.push(watcher);
        return {
          onDidCreate: watcher.events.create.event,
          onDidChange: watcher.events.change.event,
          onDidDelete: watcher.events.delete.event,
          dispose: () => void (watcher.disposed = true),
        };
      },
      /** The folder's files whose name ends in one of the glob's `{a,b}` extensions (the form this extension uses). */
      async findFiles(glob: string, _exclude: string, max: number) {
        const extensions = /\{([^}]*)\}/.exec(glob)?.[1]?.split(',') ?? [];
        const found: Uri[] = [];
        const walk = async (dir: string): Promise<void> => {
          for (const entry of await fsp.readdir(dir, { withFileTypes: true })) {
            const full = path.join(dir, entry.name);
            if (entry.isDirectory() && entry.name !== 'node_modules') await walk(full);
            else if (entry.isFile() && extensions.some((extension) => entry.name.endsWith(`.${extension}`))) found.push(Uri.file(full));
          }
        };
        if (options.folder) await walk(options.folder);
        return found.sort((a, b) => a.fsPath.localeCompare(b.fsPath)).slice(0, max);
      },
      asRelativePath: (uri: Uri) => (options.folder ? path.relative(options.folder, uri.fsPath).split(path.sep).join('/') : uri.fsPath),
      registerTextDocumentContentProvider(scheme: string, provider: ContentProvider) {
        record.contentProviders.set(scheme, provider);
        return new Disposable(() => record.contentProviders.delete(scheme));
      },
      /** A document of a registered scheme gets its text from the provider, as in VS Code. */
      async openTextDocument(uri: Uri) {
        const provider = record.contentProviders.get(uri.scheme);
        const text = provider ? await provider.provideTextDocumentContent(uri, noCancellation) : undefined;
        return { uri, getText: () => text ?? '', positionAt: (offset: number) => positionIn(text ?? '', offset) };
      },
      fs: {
        async readDirectory(uri: Uri): Promise<Array<[string, number]>> {
          const entries = await fsp.readdir(uri.fsPath, { withFileTypes: true });
          return entries.map((entry) => [
            entry.name,
            entry.isSymbolicLink() ? FileType.File | FileType.SymbolicLink : entry.isFile() ? FileType.File : entry.isDirectory() ? FileType.Directory : FileType.Unknown,
          ]);
        },
        stat: async (uri: Uri) => {
          // As VS Code's: the target's size and type, with the SymbolicLink bit when the path is a link.
          const [link, stat] = await Promise.all([fsp.lstat(uri.fsPath), fsp.stat(uri.fsPath)]);
          const type = (stat.isFile() ? FileType.File : stat.isDirectory() ? FileType.Directory : FileType.Unknown) | (link.isSymbolicLink() ? FileType.SymbolicLink : 0);
          return { type, size: stat.size, mtime: stat.mtimeMs };
        },
        readFile: async (uri: Uri) => {
          record.reads.push(uri.fsPath);
          // A Uint8Array over the bytes read, as VS Code hands them over (no copy).
          const bytes = await fsp.readFile(uri.fsPath);
          return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
        },
      },
    },
    languages: {
      match: (selector: DocumentSelector, document: TextDocumentLike) => matchScore(selector, document),
      createDiagnosticCollection(name?: string) {
        const entries = new Map<string, classes.Diagnostic[]>();
        diagnosticCollections.add(entries);
        return {
          name,
          set: (uri: Uri, diagnostics: classes.Diagnostic[] | undefined) =>
            diagnostics ? void entries.set(uri.toString(), [...diagnostics]) : void entries.delete(uri.toString()),
          get: (uri: Uri) => entries.get(uri.toString()),
          has: (uri: Uri) => entries.has(uri.toString()),
          delete: (uri: Uri) => void entries.delete(uri.toString()),
          clear: () => entries.clear(),
          dispose: () => {
            entries.clear();
            diagnosticCollections.delete(entries);
          },
        };
      },
      registerHoverProvider: register(record.providers.hover),
      registerCompletionItemProvider: register(record.providers.completion),
      registerCodeActionsProvider: register(record.providers.codeActions),
      registerInlayHintsProvider: register(record.providers.inlayHints),
      registerDefinitionProvider: register(record.providers.definition),
      registerReferenceProvider: register(record.providers.references),
      registerCodeLensProvider: register(record.providers.codeLenses),
    },
    window: {
      showInformationMessage: show('info'),
      showWarningMessage: show('warning'),
      showErrorMessage: show('error'),
      async showInputBox(box: { title?: string; value?: string; validateInput?: (value: string) => string | undefined }) {
        record.inputBoxes.push({ title: box.title, value: box.value });
        const answer = record.answers.shift();
        if (answer !== undefined && box.validateInput?.(answer)) throw new Error(`input box refused ${answer}`);
        return answer;
      },
      async showQuickPick(items: unknown[] | Promise<unknown[]>, pickOptions?: unknown) {
        const list = await items;
        record.quickPicks.push({ items: list, options: pickOptions });
        return record.pick(list);
      },
      async withProgress<T>(_options: unknown, task: (progress: unknown, token: unknown) => Promise<T>): Promise<T> {
        record.progress++;
        return task({ report() {} }, noCancellation);
      },
      setStatusBarMessage(text: string) {
        record.statusBarMessages.push(text);
        return new Disposable(() => undefined);
      },
      createStatusBarItem(...args: unknown[]): FakeStatusBarItem {
        const [id, alignment, priority] = typeof args[0] === 'string' ? args : [undefined, ...args];
        const item: FakeStatusBarItem = {
          id: id as string | undefined,
          alignment: (alignment as number | undefined) ?? vscode.StatusBarAlignment.Left,
          priority: priority as number | undefined,
          text: '',
          visible: false,
          show: () => void (item.visible = true),
          hide: () => void (item.visible = false),
          dispose: () => void (item.visible = false),
        };
        record.statusBarItems.push(item);
        return item;
      },
      createTreeView(id: string, viewOptions: FakeTreeView['options']): FakeTreeView {
        const visibility = new EventEmitter<{ visible: boolean }>();
        const view: FakeTreeView = {
          id,
          options: viewOptions,
          selection: [],
          revealed: [],
          async reveal(node, revealOptions) {
            view.revealed.push({ node, options: revealOptions });
          },
          visible: false,
          onDidChangeVisibility: visibility.event,
          setVisible(visible) {
            view.visible = visible;
            visibility.fire({ visible });
          },
          dispose() {},
        };
        record.treeViews.push(view);
        return view;
      },
      async showTextDocument(document: { uri: Uri }) {
        record.shownDocuments.push(document.uri.toString());
      },
      /** No editor is open: activation reads these, the tests open no text editors. */
      activeTextEditor: undefined,
      onDidChangeActiveTextEditor: new EventEmitter<unknown>().event,
      onDidChangeTextEditorSelection: new EventEmitter<unknown>().event,
      /** A log channel whose lines go to `logLines`. */
      createOutputChannel(name: string) {
        const line = (level: string) => (text: string) => void record.logLines.push(`${level}: ${text}`);
        return { name, trace: line('trace'), debug: line('debug'), info: line('info'), warn: line('warn'), error: line('error'), show() {}, dispose() {} };
      },
    },
    extensions: {
      getExtension(id: string) {
        const view = record.referencesView;
        if (id !== 'vscode.references-view' || !view) return undefined;
        return { activate: async () => ({ setInput: (input: unknown) => view.inputs.push(input) }) };
      },
    },
    commands: {
      registerCommand(id: string, callback: (...args: unknown[]) => unknown) {
        if (record.commands.has(id)) throw new Error(`command '${id}' already exists`);
        record.commands.set(id, callback);
        return new Disposable(() => record.commands.delete(id));
      },
      /** Runs a command registered here; VS Code's own commands (vscode.open…) are only recorded. */
      async executeCommand(id: string, ...args: unknown[]) {
        record.executed.push({ id, args });
        return record.commands.get(id)?.(...args);
      },
    },
    /** English, as VS Code with no language pack: messages formatted, never translated. */
    l10n: { t: l10n.t, bundle: undefined, uri: undefined },
    env: {
      language: 'en',
      clipboard: {
        readText: async () => record.clipboard,
        writeText: async (text: string) => void (record.clipboard = text),
      },
      async openExternal(uri: Uri) {
        record.opened.push(uri.toString());
        return true;
      },
    },
  };

  return Object.assign(record, {
    vscode,
    secrets,
    globalState: {
      get: <T>(key: string) => globalState.get(key) as T | undefined,
      update: async (key: string, value: unknown) => void globalState.set(key, value),
    },
    secretStorage: {
      get: async (key: string) => secrets.get(key),
      store: async (key: string, value: string) => {
        secrets.set(key, value);
        secretChanged.fire({ key });
      },
      delete: async (key: string) => {
        secrets.delete(key);
        secretChanged.fire({ key });
      },
      onDidChange: secretChanged.event,
    },
    /** The texts of the messages of one kind, in order. */
    texts: (kind: ShownMessage['kind']) => record.messages.filter((message) => message.kind === kind).map((message) => message.message),
    /** The diagnostics the Problems panel lists for a document. */
    diagnostics: (uri: string) => [...diagnosticCollections].flatMap((collection) => collection.get(uri) ?? []),
    /** How many listeners settings changes have. */
    configurationListeners: () => configChanged.listenerCount,
    /** Sets a value in user settings (`scope: 'user'`) or the workspace's `.vscode/settings.json`. */
    set: (scope: Scope, id: string, value: unknown) => edit(scope, { [id]: value }),
    edit,
    /** Adds a folder to the workspace (multi-root), as VS Code announces it. */
    addFolder(folder: string) {
      const folders = (vscode.workspace.workspaceFolders ??= []);
      const added = { uri: Uri.file(folder), name: path.basename(folder), index: folders.length };
      folders.push(added);
      foldersChanged.fire({ added: [added], removed: [] });
    },
    /** Removes a folder from the workspace, as VS Code announces it. */
    removeFolder(folder: string) {
      const folders = vscode.workspace.workspaceFolders ?? [];
      const removed = folders.filter((candidate) => candidate.uri.fsPath === folder);
      vscode.workspace.workspaceFolders = folders.filter((candidate) => candidate.uri.fsPath !== folder).map((kept, index) => ({ ...kept, index }));
      foldersChanged.fire({ added: [], removed });
    },
    /**
     * A change on disk at `fsPath` (made there already, by the test) reported to every live watcher that watches
     * it, as VS Code's file watcher would; answers how many reported it.
     */
    fileEvent(kind: FileEventKind, fsPath: string): number {
      const live = record.watchers.filter((watcher) => !watcher.disposed && !watcher.ignored[kind] && watches(watcher.pattern, fsPath));
      for (const watcher of live) watcher.events[kind].fire(Uri.file(fsPath));
      return live.length;
    },
    /** Sets a value in one folder's settings (a multi-root workspace's folder settings). */
    setInFolder(folder: string, id: string, value: unknown) {
      let scope = folderScopes.get(folder);
      if (!scope) folderScopes.set(folder, (scope = new Map()));
      scope.set(id, value);
      fire([id]);
    },
    setTrusted(trusted: boolean) {
      vscode.workspace.isTrusted = trusted;
      if (trusted) trustGranted.fire();
    },
  });
}

export type FakeVscode = ReturnType<typeof createFakeVscode>;

let installed: FakeVscode | undefined;

/** The line and character of `offset` in `text`, as a TextDocument answers it. */
function positionIn(text: string, offset: number): classes.Position {
  const before = text.slice(0, offset);
  const line = before.split('\n').length - 1;
  return new classes.Position(line, offset - (before.lastIndexOf('\n') + 1));
}

/**
 * Makes `require('vscode')` return the stand-in, and gives a fresh one (for `folder`, when given) on every call:
 * modules loaded once keep one 'vscode' object, whose members read through to the latest stand-in.
 */
export function installFakeVscode(folder?: string): FakeVscode {
  const fake = createFakeVscode(folder === undefined ? {} : { folder });
  if (!installed) {
    const facade: Record<string, unknown> = {};
    for (const key of Object.keys(fake.vscode)) {
      Object.defineProperty(facade, key, { enumerable: true, get: () => (installed?.vscode as Record<string, unknown>)[key] });
    }
    const loader = Module as unknown as { _load(request: string, ...rest: unknown[]): unknown };
    const load = loader._load;
    loader._load = function (this: unknown, request: string, ...rest: unknown[]) {
      return request === 'vscode' ? facade : load.call(this, request, ...rest);
    };
  }
  installed = fake;
  return fake;
}
