/**
 * A stand-in for the 'vscode' module, enough to run the Connection, the token store and the connection commands in
 * plain Node: settings in three scopes (default, user, workspace) with `inspect()`, workspace trust, export files on
 * the real disk, secret storage and global state in memory, and a window that records every message and answers
 * input boxes and modals from a script. `installFakeVscode()` makes `require('vscode')` return it.
 */
import { promises as fsp } from 'node:fs';
import Module from 'node:module';
import * as path from 'node:path';
import { Emitter } from '../../src/base/emitter';

export interface ShownMessage {
  kind: 'info' | 'warning' | 'error';
  message: string;
  modal: boolean;
  detail?: string;
  buttons: string[];
}

class Disposable {
  constructor(private readonly callback: () => void) {}
  static from(...items: Array<{ dispose(): unknown }>): Disposable {
    return new Disposable(() => items.forEach((item) => item.dispose()));
  }
  dispose(): void {
    this.callback();
  }
}

const FileType = { Unknown: 0, File: 1, Directory: 2, SymbolicLink: 64 };

interface FakeUri {
  scheme: string;
  fsPath: string;
  path: string;
  toString(): string;
}

function fileUri(fsPath: string): FakeUri {
  return { scheme: 'file', fsPath, path: fsPath, toString: () => `file://${fsPath}` };
}

export function createFakeVscode(options: { folder: string }) {
  const user = new Map<string, unknown>();
  const workspaceScope = new Map<string, unknown>();
  /** Settings of one workspace folder (resource scope), by folder path: they win inside that folder. */
  const folderScopes = new Map<string, Map<string, unknown>>();
  const configChanged = new Emitter<{ affectsConfiguration(section: string): boolean }>();
  const trustGranted = new Emitter<void>();
  const secrets = new Map<string, string>();
  const secretChanged = new Emitter<{ key: string }>();
  const globalState = new Map<string, unknown>();
  const commands = new Map<string, (...args: unknown[]) => unknown>();
  const messages: ShownMessage[] = [];
  /** Answers for input boxes and for messages with buttons, taken in order; undefined = dismissed. */
  const answers: Array<string | undefined> = [];
  /** Every file read through `workspace.fs.readFile`. */
  const reads: string[] = [];

  const fire = (id: string) => configChanged.fire({ affectsConfiguration: (section) => id === section || id.startsWith(`${section}.`) });

  const show = (kind: ShownMessage['kind']) => async (message: string, ...rest: unknown[]) => {
    const first = rest[0];
    const modal = typeof first === 'object' && first !== null && (first as { modal?: boolean }).modal === true;
    const detail = modal ? (first as { detail?: string }).detail : undefined;
    const buttons = rest.filter((item): item is string => typeof item === 'string');
    messages.push({ kind, message, modal, detail, buttons });
    return buttons.length ? answers.shift() : undefined;
  };

  const vscode = {
    Disposable,
    EventEmitter: Emitter,
    FileType,
    ConfigurationTarget: { Global: 1, Workspace: 2, WorkspaceFolder: 3 },
    ProgressLocation: { SourceControl: 1, Window: 10, Notification: 15 },
    Uri: {
      file: fileUri,
      joinPath: (base: FakeUri, ...parts: string[]) => fileUri(path.join(base.fsPath, ...parts)),
    },
    workspace: {
      isTrusted: true,
      workspaceFolders: [{ uri: fileUri(options.folder), name: path.basename(options.folder), index: 0 }],
      getWorkspaceFolder(uri: FakeUri) {
        return vscode.workspace.workspaceFolders.find((folder) => uri.fsPath === folder.uri.fsPath || uri.fsPath.startsWith(folder.uri.fsPath + path.sep));
      },
      getConfiguration(section: string, scope?: FakeUri) {
        const id = (key: string) => `${section}.${key}`;
        const folder = scope && vscode.workspace.getWorkspaceFolder(scope);
        const own = folder && folderScopes.get(folder.uri.fsPath);
        return {
          get<T>(key: string, fallback?: T): T | undefined {
            const full = id(key);
            if (vscode.workspace.isTrusted && own?.has(full)) return own.get(full) as T;
            if (vscode.workspace.isTrusted && workspaceScope.has(full)) return workspaceScope.get(full) as T;
            return user.has(full) ? (user.get(full) as T) : fallback;
          },
          inspect<T>(key: string) {
            const full = id(key);
            return {
              key: full,
              globalValue: user.get(full) as T | undefined,
              workspaceValue: workspaceScope.get(full) as T | undefined,
            };
          },
          async update(key: string, value: unknown, target: number) {
            (target === 1 ? user : workspaceScope).set(id(key), value);
            fire(id(key));
          },
        };
      },
      onDidChangeConfiguration: configChanged.event,
      onDidGrantWorkspaceTrust: trustGranted.event,
      onDidChangeWorkspaceFolders: new Emitter<void>().event,
      createFileSystemWatcher: () => ({
        onDidCreate: new Emitter<void>().event,
        onDidChange: new Emitter<void>().event,
        onDidDelete: new Emitter<void>().event,
        dispose() {},
      }),
      asRelativePath: (uri: FakeUri) => path.relative(options.folder, uri.fsPath).split(path.sep).join('/'),
      fs: {
        async readDirectory(uri: FakeUri): Promise<Array<[string, number]>> {
          const entries = await fsp.readdir(uri.fsPath, { withFileTypes: true });
          return entries.map((entry) => [
            entry.name,
            entry.isSymbolicLink() ? FileType.File | FileType.SymbolicLink : entry.isFile() ? FileType.File : entry.isDirectory() ? FileType.Directory : FileType.Unknown,
          ]);
        },
        stat: async (uri: FakeUri) => {
          const stat = await fsp.stat(uri.fsPath);
          return { size: stat.size, mtime: stat.mtimeMs };
        },
        readFile: async (uri: FakeUri) => {
          reads.push(uri.fsPath);
          return new Uint8Array(await fsp.readFile(uri.fsPath));
        },
      },
    },
    window: {
      showInformationMessage: show('info'),
      showWarningMessage: show('warning'),
      showErrorMessage: show('error'),
      async showInputBox(box: { validateInput?: (value: string) => string | undefined }) {
        const answer = answers.shift();
        if (answer !== undefined && box.validateInput?.(answer)) throw new Error(`input box refused ${answer}`);
        return answer;
      },
      async withProgress<T>(_options: unknown, task: (progress: unknown, token: unknown) => Promise<T>): Promise<T> {
        return task({ report() {} }, { isCancellationRequested: false, onCancellationRequested: () => ({ dispose() {} }) });
      },
    },
    commands: {
      registerCommand(id: string, callback: (...args: unknown[]) => unknown) {
        commands.set(id, callback);
        return new Disposable(() => commands.delete(id));
      },
      async executeCommand(id: string, ...args: unknown[]) {
        return commands.get(id)?.(...args);
      },
    },
  };

  return {
    vscode,
    messages,
    answers,
    reads,
    commands,
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
    secrets,
    /** Sets a value in user settings (`scope: 'user'`) or the workspace's `.vscode/settings.json`. */
    set(scope: 'user' | 'workspace', id: string, value: unknown) {
      (scope === 'user' ? user : workspaceScope).set(id, value);
      fire(id);
    },
    /** Adds a folder to the workspace (multi-root). */
    addFolder(folder: string) {
      const folders = vscode.workspace.workspaceFolders;
      folders.push({ uri: fileUri(folder), name: path.basename(folder), index: folders.length });
    },
    /** Sets a value in one folder's settings (a multi-root workspace's folder settings). */
    setInFolder(folder: string, id: string, value: unknown) {
      let scope = folderScopes.get(folder);
      if (!scope) folderScopes.set(folder, (scope = new Map()));
      scope.set(id, value);
      fire(id);
    },
    setTrusted(trusted: boolean) {
      vscode.workspace.isTrusted = trusted;
      if (trusted) trustGranted.fire();
    },
  };
}

export type FakeVscode = ReturnType<typeof createFakeVscode>;

let installed: FakeVscode | undefined;

/**
 * Makes `require('vscode')` return the stand-in, and gives a fresh one for `folder` on every call: modules loaded
 * once keep one 'vscode' object, whose members read through to the latest stand-in.
 */
export function installFakeVscode(folder: string): FakeVscode {
  const fake = createFakeVscode({ folder });
  if (!installed) {
    const facade: Record<string, unknown> = {};
    for (const key of Object.keys(fake.vscode)) {
      Object.defineProperty(facade, key, { enumerable: true, get: () => (installed?.vscode as Record<string, unknown>)[key] });
    }
    const loader = Module as unknown as { _load(request: string, ...rest: unknown[]): unknown };
    const load = loader._load;
    loader._load = function (request: string, ...rest: unknown[]) {
      return request === 'vscode' ? facade : load.call(this, request, ...rest);
    };
  }
  installed = fake;
  return fake;
}
