/** Reads the extension's settings, typed, in one place. */
import * as vscode from 'vscode';
import { SETTINGS_SECTION, Settings } from '../constants';
import type { ProxySupport } from '../api/proxy';
import type { NameTransform } from '../model/flagNames';
import {
  chooseServer, clampSetting, languageFilters, SETTING_LIMITS, userValue, validSdkCalls, validTransforms, type LanguageFilter,
} from '../model/settingRules';

export interface ExtensionSettings {
  serverUrl: string;
  /** True when a workspace's settings (not the user's) chose `serverUrl`: it needs the user's approval. */
  serverUrlFromWorkspace: boolean;
  /** The web UI's address, when it differs from the API's. */
  webUrl: string;
  projects: string[];
  requestTimeoutMs: number;
  refreshIntervalMinutes: number;
  exportPath: string;
  /** How code names flags, checked: what is malformed is left out and said in `problems`. */
  hover: {
    enabled: boolean;
    /** The documents of `unleash.hover.languages`. */
    languages: LanguageFilter[];
    /** Undefined: the built-in list. */
    sdkCalls: string[] | undefined;
    nameTransforms: NameTransform[];
    /** Names outside string literals too (comments, prose, identifiers as written). */
    matchAnywhere: boolean;
    /** What was wrong with `unleash.hover.nameTransforms` (left out). */
    problems: string[];
  };
  completion: { enabled: boolean };
  diagnostics: {
    enabled: boolean;
    /** As written in the settings; `severitiesFrom` checks it. */
    severity: unknown;
  };
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

export function readSettings(): ExtensionSettings {
  const config = vscode.workspace.getConfiguration(SETTINGS_SECTION);
  const http = vscode.workspace.getConfiguration('http');
  const transformProblems: string[] = [];
  const server = chooseServer(config.inspect<string>(Settings.serverUrl), vscode.workspace.isTrusted);
  return {
    serverUrl: server.url,
    serverUrlFromWorkspace: server.fromWorkspace,
    // The web UI address goes with the server: the user's beside the user's server, the workspace's beside the
    // workspace's (which needs the user's approval before anything is shown).
    webUrl: (server.fromWorkspace ? config.get<string>(Settings.webUrl, '') : userValue(config.inspect<string>(Settings.webUrl), '')).trim(),
    projects: config.get<string[]>(Settings.projects, []).filter((project) => project.trim()),
    requestTimeoutMs: clampSetting(config.get<number>(Settings.requestTimeoutSeconds), SETTING_LIMITS.requestTimeoutSeconds) * 1000,
    refreshIntervalMinutes: clampSetting(config.get<number>(Settings.refreshIntervalMinutes), SETTING_LIMITS.refreshIntervalMinutes),
    exportPath: config.get<string>(Settings.exportPath, '.unleash/${environment}.json'),
    hover: {
      enabled: config.get<boolean>(Settings.hoverEnabled, true) !== false,
      languages: languageFilters(config.get<unknown>(Settings.hoverLanguages, ['*'])),
      sdkCalls: validSdkCalls(config.get<unknown>(Settings.hoverSdkCalls)),
      nameTransforms: validTransforms(config.get<unknown>(Settings.hoverNameTransforms, []), transformProblems),
      matchAnywhere: config.get<boolean>(Settings.hoverMatchAnywhere, false) === true,
      problems: transformProblems,
    },
    completion: { enabled: config.get<boolean>(Settings.completionEnabled, true) },
    diagnostics: {
      enabled: config.get<boolean>(Settings.diagnosticsEnabled, true),
      severity: config.get<unknown>(Settings.diagnosticsSeverity, {}),
    },
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

/** VS Code's settings that shape the connection (all application or machine scoped). */
const HTTP_SETTINGS = ['http.proxy', 'http.proxyStrictSSL', 'http.noProxy', 'http.proxyAuthorization', 'http.proxySupport', 'http.systemCertificates'];

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
  const url = readSettings().serverUrl;
  if (!url) return undefined;
  try {
    return new URL(url).host || url;
  } catch {
    return url;
  }
}
