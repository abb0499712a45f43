/** Every command, view, context key, setting and secret id of the extension, once. package.json must match. */

export const Commands = {
  connect: 'unleash.connect',
  setToken: 'unleash.setToken',
  forgetToken: 'unleash.forgetToken',
  approveServer: 'unleash.approveServer',
  testConnection: 'unleash.testConnection',
  showLog: 'unleash.showLog',
  openSettings: 'unleash.openSettings',
  refresh: 'unleash.refresh',
  findFlag: 'unleash.findFlag',
  revealFlag: 'unleash.revealFlag',
  copyFlagName: 'unleash.copyFlagName',
  openInWebUi: 'unleash.openInWebUi',
  findUsages: 'unleash.findUsages',
  checkTag: 'unleash.checkTag',
  exportEnvironment: 'unleash.exportEnvironment',
  showFlagDetails: 'unleash.showFlagDetails',
  /** The next changes of a details document's history (its code lens, the palette on a details document). */
  readMoreHistory: 'unleash.readMoreHistory',
  copyValue: 'unleash.copyValue',
  checkWorkspaceFlags: 'unleash.checkWorkspaceFlags',
  statusActions: 'unleash.statusActions',
  compareExport: 'unleash.compareExport',
  updateExport: 'unleash.updateExport',
  compareEnvironments: 'unleash.compareEnvironments',
  refreshCleanup: 'unleash.refreshCleanup',
  /** Run by an accepted completion: remembers the name for ranking. Not in the palette. */
  recordFlagUse: 'unleash.recordFlagUse',
} as const;

/** The URI scheme of the read-only flag details documents. */
export const FLAG_DETAILS_SCHEME = 'unleash-flag';
/** The server's side of Compare Export with Server (a read-only fresh export). */
export const EXPORT_SERVER_SCHEME = 'unleash-export-server';
/** The two sides of Compare Environments (read-only). */
export const ENVIRONMENT_SCHEME = 'unleash-environment';

export const Views = {
  container: 'unleash',
  flags: 'unleash.flags',
  exports: 'unleash.exports',
  cleanup: 'unleash.cleanup',
} as const;

/** Context keys the manifest's `when` clauses read. */
export const ContextKeys = {
  /** One of the store's states (`StoreState` of model/store/flagStore.ts): the welcome content follows it. */
  state: 'unleash.state',
  /** The editor's cursor rests on a known flag name (the editor context menu offers Copy Name, Find Usages …). */
  flagAtCursor: 'unleash.flagAtCursor',
  /**
   * Where flags come from (`SourceMode` of model/store/flagSource.ts): `server` (a server is set, whatever its state),
   * `offline` (export files), `none`. Commands that need a server are enabled and in the palette only with `server`.
   */
  mode: 'unleash.mode',
  /** The browser build runs (vscode.dev, github.dev): it reads the committed export files only, so Connect… is not on offer. */
  browser: 'unleash.browser',
} as const;

export const SETTINGS_SECTION = 'unleash';

/** Setting keys below the `unleash.` section. */
export const Settings = {
  serverUrl: 'serverUrl',
  webUrl: 'webUrl',
  projects: 'projects',
  requestTimeoutSeconds: 'requestTimeoutSeconds',
  refreshIntervalMinutes: 'refreshIntervalMinutes',
  exportPath: 'export.path',
  exportMaxMegabytes: 'export.maxMegabytes',
  hoverEnabled: 'hover.enabled',
  hoverLanguages: 'hover.languages',
  hoverSdkCalls: 'hover.sdkCalls',
  hoverNameTransforms: 'hover.nameTransforms',
  hoverMatchAnywhere: 'hover.matchAnywhere',
  completionEnabled: 'completion.enabled',
  diagnosticsEnabled: 'diagnostics.enabled',
  diagnosticsSeverity: 'diagnostics.severity',
  inlayHintsEnabled: 'inlayHints.enabled',
  environments: 'environments',
  cleanupUnusedDays: 'cleanup.unusedDays',
  caCertificates: 'network.caCertificates',
  rejectUnauthorized: 'network.rejectUnauthorized',
} as const;

/** The full id of a setting, as users see it and as messages name it. */
export function settingId(key: (typeof Settings)[keyof typeof Settings]): string {
  return `${SETTINGS_SECTION}.${key}`;
}

/** Keys of the extension's global state (`context.globalState`: the user's, never the workspace's). */
export const StateKeys = {
  /**
   * Addresses (origin and base path) of servers the user allowed although a workspace's settings named them
   * (services/approvals.ts). The key's name is from when only the origin was kept; those entries still read.
   */
  approvedServers: 'unleash.approvedServerOrigins',
  /** The projects each server's last listing found (services/knownProjects.ts). */
  knownProjects: 'unleash.knownProjects',
} as const;

/** SecretStorage key of the token for one server URL. */
export function tokenSecretKey(serverUrl: string): string {
  return `unleash.token:${serverUrl}`;
}

/** Fallback for the token when none is stored (CI, dev containers). */
export const TOKEN_ENV_VAR = 'UNLEASH_API_TOKEN';

/** VS Code's proxy setting; named in every message about the proxy. */
export const PROXY_SETTING = 'http.proxy';

/** Folder (in each workspace folder) of the export files that the offline mode reads. */
export const EXPORT_FOLDER = '.unleash';
/**
 * The files offline mode reads, relative to a workspace folder: the exports (`*.json`) and their segments files
 * (`*.json.segments`). Only as a RelativePattern's pattern: VS Code matches a plain string glob against absolute paths.
 */
export const EXPORT_FILES_PATTERN = `${EXPORT_FOLDER}/*.{json,segments}`;
/** Where an export goes when `unleash.export.path` is empty (model/export/exportPath.ts). */
export const DEFAULT_EXPORT_PATH_TEMPLATE = '.unleash/${environment}.json';

export const LOG_CHANNEL_NAME = 'Unleash';

/** Where dist/extension.js records `performance.now()` at its first and last statement (esbuild.js BUNDLE_TIMES). */
export const BUNDLE_TIMES_GLOBAL = '__unleashFlagsBundle';

/** Id of the status bar item (users can hide it by this name). */
export const STATUS_BAR_ID = 'unleash.status';
/** Id of the status bar item shown while an export file differs from the server. */
export const DRIFT_STATUS_BAR_ID = 'unleash.exportDrift';

const SOURCE_EXTENSIONS = 'ts,tsx,mts,cts,js,jsx,mjs,cjs,py,go,java,kt,kts,rb,php,cs,swift,rs,dart,vue,svelte,scala,groovy,ex,exs';
/** Files the "Check Workspace for Flag References" command reads. */
export const SOURCE_FILES_GLOB = `**/*.{${SOURCE_EXTENSIONS}}`;
/** Files Find Usages reads: source files, and configuration files that name flags as plain values. */
export const USAGE_FILES_GLOB = `**/*.{${SOURCE_EXTENSIONS},yaml,yml,properties,toml,env}`;
/** Left out of the workspace check besides `files.exclude`. */
export const SOURCE_FILES_EXCLUDE = '**/{node_modules,dist,out,build,vendor,.git}/**';
