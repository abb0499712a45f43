/** Reads the extension's settings, typed, in one place. */
import * as vscode from 'vscode';
import { SETTINGS_SECTION, Settings } from '../constants';
import type { NameTransform } from '../model/flagNames';

export interface ExtensionSettings {
  serverUrl: string;
  /** The web UI's address, when it differs from the API's. */
  webUrl: string;
  projects: string[];
  requestTimeoutMs: number;
  refreshIntervalMinutes: number;
  exportPath: string;
  hover: {
    enabled: boolean;
    languages: string[];
    sdkCalls: string[] | undefined;
    nameTransforms: NameTransform[];
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
  };
}

export function readSettings(): ExtensionSettings {
  const config = vscode.workspace.getConfiguration(SETTINGS_SECTION);
  const http = vscode.workspace.getConfiguration('http');
  const sdkCalls = config.get<string[]>(Settings.hoverSdkCalls);
  return {
    serverUrl: config.get<string>(Settings.serverUrl, '').trim(),
    webUrl: config.get<string>(Settings.webUrl, '').trim(),
    projects: config.get<string[]>(Settings.projects, []).filter((project) => project.trim()),
    requestTimeoutMs: Math.max(1, config.get<number>(Settings.requestTimeoutSeconds, 15)) * 1000,
    refreshIntervalMinutes: Math.max(0, config.get<number>(Settings.refreshIntervalMinutes, 0)),
    exportPath: config.get<string>(Settings.exportPath, '.unleash/${environment}.json'),
    hover: {
      enabled: config.get<boolean>(Settings.hoverEnabled, true),
      languages: config.get<string[]>(Settings.hoverLanguages, ['*']),
      sdkCalls: sdkCalls && sdkCalls.length ? sdkCalls : undefined,
      nameTransforms: config.get<NameTransform[]>(Settings.hoverNameTransforms, []),
    },
    completion: { enabled: config.get<boolean>(Settings.completionEnabled, true) },
    diagnostics: {
      enabled: config.get<boolean>(Settings.diagnosticsEnabled, true),
      severity: config.get<unknown>(Settings.diagnosticsSeverity, {}),
    },
    network: {
      caCertificates: config.get<string[]>(Settings.caCertificates, []),
      rejectUnauthorized: config.get<boolean>(Settings.rejectUnauthorized, true),
      proxy: http.get<string>('proxy') || undefined,
      proxyStrictSSL: http.get<boolean>('proxyStrictSSL', true),
    },
  };
}

/** Fires when any `unleash.*` or `http.proxy*` setting changes. */
export function onDidChangeSettings(listener: () => void): vscode.Disposable {
  return vscode.workspace.onDidChangeConfiguration((event) => {
    if (event.affectsConfiguration(SETTINGS_SECTION) || event.affectsConfiguration('http.proxy') || event.affectsConfiguration('http.proxyStrictSSL')) {
      listener();
    }
  });
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
