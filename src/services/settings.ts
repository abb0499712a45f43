/**
 * Reads the extension's settings, typed, in one place. Most are the window's; `unleash.projects`, `unleash.export.path`
 * and `unleash.hover.*` have `resource` scope, so each folder of a multi-root workspace may set its own: the hover
 * settings are read for the document (`readHoverSettings(document.uri)`), the export path for the folder exported to
 * (`readExportPath`), and the projects as the union of the folders' lists (`projectsOf`); all through
 * `resourceSettings`. A list a workspace can write is read within the intake budget (settingRules.ts): what is past it
 * is left out and named in `problems` (the log) or, for the projects, in the Flags view.
 */
import { environmentSetting } from '../model/store/environmentChoice';
import * as vscode from 'vscode';
import { DEFAULT_EXPORT_PATH_TEMPLATE, SETTINGS_SECTION, settingId, Settings } from '../base/constants';
import type { ProxySupport } from '../api/proxy';
import type { NameTransform } from '../model/code/nameTransforms';
import {
  boundedObject, boundedStrings, chooseServer, clampSetting, languageFilters, projectsOf, SETTING_LIMITS, userValue, validSdkCalls, validTransforms,
  workspaceValue, type LanguageFilter, type SettingProblem,
} from '../model/settings/settingRules';

export interface ExtensionSettings {
  serverUrl: string;
  /** True when a workspace's settings (not the user's) chose `serverUrl`: it needs the user's approval. */
  serverUrlFromWorkspace: boolean;
  /** The web UI's address, when it differs from the API's. */
  webUrl: string;
  /** True when `webUrl` is the workspace's own value (beside a workspace's server): the approval names it. */
  webUrlFromWorkspace: boolean;
  /** At most MAX_PROJECTS (settingRules.ts); `projectsNote` says so when more were named. */
  projects: string[];
  projectsNote?: string;
  requestTimeoutMs: number;
  refreshIntervalMinutes: number;
  network: {
    caCertificates: string[];
    rejectUnauthorized: boolean;
    proxy: string | undefined;
    proxyStrictSSL: boolean;
    /** `http.noProxy`: hosts reached without the proxy (NO_PROXY applies when empty). */
    noProxy: string[];
    /** `http.proxyAuthorization`: the Proxy-Authorization header's value; never logged. */
    proxyAuthorization: string | undefined;
    proxySupport: ProxySupport;
    /** `http.systemCertificates`: trust the operating system's certificate store too. */
    systemCertificates: boolean;
  };
}

/** How code names flags, checked: what is malformed is left out and said in `problems`. */
export interface HoverSettings {
  enabled: boolean;
  /** The documents of `unleash.hover.languages`. */
  languages: LanguageFilter[];
  /** Undefined: the built-in list. */
  sdkCalls: string[] | undefined;
  nameTransforms: NameTransform[];
  /** Names outside string literals too (comments, prose, identifiers as written). */
  matchAnywhere: boolean;
  /** What was wrong with these settings, or past the intake budget: left out, and logged. */
  problems: SettingProblem[];
  /** `unleash.environments`: the environments hovers, completion and hints show, in order (empty: all). */
  environments: string[];
}

/**
 * The URI schemes of the documents code features read: files, untitled documents, and the workspace folders' own
 * (`vscode-vfs` on github.dev, `vscode-remote` in a browser's web worker extension host), never an output channel's,
 * a diff's or a details document's.
 */
export function codeSchemes(): string[] {
  return [...new Set(['file', ...(vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri.scheme), 'untitled'])];
}

/**
 * The `unleash.*` settings as they apply to `scope` (a folder, or a document: its folder's values); without one, the
 * window's, read with the scope `null` ("any resource"): VS Code logs a warning for a resource setting read with none.
 */
function resourceSettings(scope: vscode.Uri | undefined): vscode.WorkspaceConfiguration {
  return vscode.workspace.getConfiguration(SETTINGS_SECTION, scope ?? null);
}

/** `unleash.hover.*` as they apply to `scope` (a document's URI: its folder's values), else the window's. */
export function readHoverSettings(scope?: vscode.Uri): HoverSettings {
  const config = resourceSettings(scope);
  const problems: SettingProblem[] = [];
  return {
    enabled: config.get<boolean>(Settings.hoverEnabled, true) !== false,
    languages: languageFilters(config.get<unknown>(Settings.hoverLanguages, ['*']), codeSchemes(), problems),
    sdkCalls: validSdkCalls(config.get<unknown>(Settings.hoverSdkCalls), problems),
    nameTransforms: validTransforms(config.get<unknown>(Settings.hoverNameTransforms, []), problems),
    matchAnywhere: config.get<boolean>(Settings.hoverMatchAnywhere, false) === true,
    problems,
    environments: environmentSetting(boundedStrings(config.get<unknown>(Settings.environments, []), settingId(Settings.environments), problems)),
  };
}

/** The scopes whose resource settings count: each workspace folder, or the window when no folder is open. */
export function folderScopes(): Array<vscode.Uri | undefined> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  return folders.length ? folders.map((folder) => folder.uri) : [undefined];
}

/** `unleash.export.path` of the folder the export goes to (each folder of a multi-root workspace may have its own). */
export function readExportPath(folder: vscode.Uri | undefined): string {
  return resourceSettings(folder).get<string>(Settings.exportPath, DEFAULT_EXPORT_PATH_TEMPLATE);
}

/**
 * `unleash.export.maxMegabytes` in bytes: how large one export's answer may be. The user's (machine) setting only:
 * a workspace cannot make the editor download and write gigabytes.
 */
export function readExportMaxBytes(): number {
  const value = userValue(vscode.workspace.getConfiguration(SETTINGS_SECTION).inspect<number>(Settings.exportMaxMegabytes), undefined);
  return clampSetting(value, SETTING_LIMITS['export.maxMegabytes']) * 1024 * 1024;
}

export function readSettings(): ExtensionSettings {
  const config = vscode.workspace.getConfiguration(SETTINGS_SECTION);
  const http = vscode.workspace.getConfiguration('http');
  const server = chooseServer(config.inspect<string>(Settings.serverUrl), vscode.workspace.isTrusted);
  // One Flags view for the window: the union of the folders' project lists (see unionOfProjects), capped.
  const projects = projectsOf(folderScopes().map((scope) => resourceSettings(scope).get<unknown>(Settings.projects, [])));
  return {
    serverUrl: server.url,
    serverUrlFromWorkspace: server.fromWorkspace,
    // The web UI address goes with the server: the user's beside the user's server, the workspace's beside the
    // workspace's (which needs the user's approval before anything is shown, and the approval names it).
    webUrl: (server.fromWorkspace ? config.get<string>(Settings.webUrl, '') : userValue(config.inspect<string>(Settings.webUrl), '')).trim(),
    webUrlFromWorkspace: server.fromWorkspace && Boolean(workspaceValue(config.inspect<string>(Settings.webUrl))),
    projects: projects.projects,
    projectsNote: projects.note,
    requestTimeoutMs: clampSetting(config.get<number>(Settings.requestTimeoutSeconds), SETTING_LIMITS.requestTimeoutSeconds) * 1000,
    refreshIntervalMinutes: readRefreshIntervalMinutes(),
    network: {
      // How TLS is checked is the user's (or the machine's) decision, never a workspace's.
      caCertificates: userValue(config.inspect<string[]>(Settings.caCertificates), []),
      rejectUnauthorized: userValue(config.inspect<boolean>(Settings.rejectUnauthorized), true) !== false,
      // Where requests (and so the token) go through, and whether that proxy's certificate is checked: the user's.
      proxy: userValue(http.inspect<string>('proxy'), '') || undefined,
      proxyStrictSSL: userValue(http.inspect<boolean>('proxyStrictSSL'), true) !== false,
      noProxy: stringList(userValue(http.inspect<unknown>('noProxy'), [])),
      proxyAuthorization: stringOrUndefined(userValue(http.inspect<unknown>('proxyAuthorization'), undefined)),
      proxySupport: proxySupportOf(userValue(http.inspect<unknown>('proxySupport'), 'override')),
      systemCertificates: userValue(http.inspect<boolean>('systemCertificates'), true) !== false,
    },
  };
}

/* Parts of readSettings() for callers that need only them, so that they do not read (and inspect) every setting. */

/** The server address in the user's own settings (what Connect to Server… edits): never a workspace's. */
export function readUserServerUrl(): string {
  return userValue(vscode.workspace.getConfiguration(SETTINGS_SECTION).inspect<string>(Settings.serverUrl), '').trim();
}

/** The server address, decided as readSettings() decides it (offline mode: ''). */
export function readServerUrl(): string {
  return chooseServer(vscode.workspace.getConfiguration(SETTINGS_SECTION).inspect<string>(Settings.serverUrl), vscode.workspace.isTrusted).url;
}

export function readRefreshIntervalMinutes(): number {
  return clampSetting(vscode.workspace.getConfiguration(SETTINGS_SECTION).get<number>(Settings.refreshIntervalMinutes), SETTING_LIMITS.refreshIntervalMinutes);
}

/**
 * What completion and diagnostics read (the window's); the hover settings are each folder's (HoverSettingsByFolder).
 * `unleash.diagnostics.severity` is an object a workspace can write: only its first INTAKE_BUDGET.settingItems keys are
 * read (there are five kinds), the cut said in `problems`.
 */
export function readCodeSettings(): { completion: boolean; diagnostics: boolean; severity: unknown; problems: SettingProblem[] } {
  const config = vscode.workspace.getConfiguration(SETTINGS_SECTION);
  const problems: SettingProblem[] = [];
  return {
    completion: config.get<boolean>(Settings.completionEnabled, true),
    diagnostics: config.get<boolean>(Settings.diagnosticsEnabled, true),
    // As written in the settings; `severitiesFrom` checks it.
    severity: boundedObject(config.get<unknown>(Settings.diagnosticsSeverity, {}), settingId(Settings.diagnosticsSeverity), problems),
    problems,
  };
}

/** VS Code's settings that shape the connection (all application or machine scoped). */
const HTTP_SETTINGS = ['http.proxy', 'http.proxyStrictSSL', 'http.noProxy', 'http.proxyAuthorization', 'http.proxySupport', 'http.systemCertificates'];

/** The `unleash.*` settings that decide which server is asked and how (the rest only change what is shown). */
const CONNECTION_SETTINGS = [Settings.serverUrl, Settings.webUrl, Settings.projects, Settings.requestTimeoutSeconds, 'network'];

/**
 * Fires when a setting that decides the connection changes (CONNECTION_SETTINGS, HTTP_SETTINGS): choosing which
 * environments to show, or how hovers read names, does not read the flags again.
 */
export function onDidChangeConnectionSettings(listener: () => void): vscode.Disposable {
  return vscode.workspace.onDidChangeConfiguration((event) => {
    const ids = [...CONNECTION_SETTINGS.map((key) => `${SETTINGS_SECTION}.${key}`), ...HTTP_SETTINGS];
    if (ids.some((id) => event.affectsConfiguration(id))) listener();
  });
}

/** Fires when any `unleash.*` setting or one of HTTP_SETTINGS changes. */
export function onDidChangeSettings(listener: () => void): vscode.Disposable {
  return vscode.workspace.onDidChangeConfiguration((event) => {
    if (event.affectsConfiguration(SETTINGS_SECTION) || HTTP_SETTINGS.some((id) => event.affectsConfiguration(id))) {
      listener();
    }
  });
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string' && item.trim() !== '') : [];
}

function stringOrUndefined(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() ? value.trim() : undefined;
}

function proxySupportOf(value: unknown): ProxySupport {
  return value === 'off' || value === 'on' || value === 'fallback' ? value : 'override';
}

/** The configured server's host, for messages; undefined in offline mode. */
export function serverHost(): string | undefined {
  const url = readServerUrl();
  if (!url) return undefined;
  try {
    return new URL(url).host || url;
  } catch {
    return url;
  }
}
