/**
 * The browser build's composition root (package.json `browser`, dist/web/extension.js): vscode.dev, github.dev and
 * any editor that runs the extension in its web worker extension host. It reads the export files committed to the
 * workspace (`.unleash/*.json` and their segments files) through `vscode.workspace.fs`, within the desktop's export
 * budget, and wires the same views, hovers and code features as src/extension.ts. No server, no token, no export
 * written: nothing here imports Node's modules or the HTTP client (a unit test builds the bundle and checks).
 */
import * as vscode from 'vscode';
import { flagAtCursor } from './code/flagAtCursor';
import { registerCodeFeatures } from './code/codeFeatures';
import { FlagDiagnosticsPublisher } from './code/flagDiagnosticsPublisher';
import { registerCheckTagCommand } from './commands/checkTag';
import { registerCheckWorkspaceCommand } from './commands/checkWorkspace';
import { registerCompareEnvironments } from './commands/compareEnvironments';
import { registerFlagDetails } from './commands/flagDetails';
import { registerFlagCommands } from './commands/flags';
import { registerLogAndSettingsCommands } from './commands/logAndSettings';
import { ContextKeys, LOG_CHANNEL_NAME } from './base/constants';
import { registerFlagHovers } from './hovers/flagHoverProvider';
import { committedExportsNote } from './model/content/committedExports';
import { FlagStore } from './model/store/flagStore';
import { activationTimes, afterActivation } from './services/activation';
import { bindStoreToConnection } from './services/binding';
import { CodeFlags } from './services/codeFlags';
import { FilesConnection } from './services/filesConnection';
import { HoverSettingsByFolder } from './services/hoverSettingsByFolder';
import { WorkspaceExports } from './services/workspaceExports';
import { BrowserJobs } from './services/webWorker';
import { configureL10n } from './services/l10n';
import { createLogger } from './services/logger';
import { registerCleanupView } from './views/cleanupView';
import { registerFlagsView, type FlagsView } from './views/flagsTree';

/** What activate() returns, for the in-editor tests: the store and the tree as the user sees them. */
export interface BrowserExtensionApi {
  store: FlagStore;
  flagsView: FlagsView;
  diagnostics: FlagDiagnosticsPublisher;
  /** `typeof process` where the extension runs: 'undefined' in a web worker extension host. */
  processType: string;
  /** Loading the bundle (its first statement to its last) and activate(), as the desktop build counts it. */
  activationMs: number;
  bundleLoadMs: number;
}

export function activate(context: vscode.ExtensionContext): BrowserExtensionApi {
  const started = performance.now();
  configureL10n();
  const channel = vscode.window.createOutputChannel(LOG_CHANNEL_NAME, { log: true });
  const logger = createLogger(channel);
  const reading = () => import('./model/store/offlineReading');
  // The export files are read in a web worker where the extension host can start one, else in time slices.
  const jobs = new BrowserJobs(vscode.Uri.joinPath(context.extensionUri, 'dist', 'web', 'worker.js'), logger.child('connection'), async () => new (await reading()).InThreadJobs());
  const exportFiles = new WorkspaceExports(logger.child('connection'), {
    load: reading,
    jobs,
    lead: (read) => committedExportsNote(read.changedAt, new Date()),
  });
  const connection = new FilesConnection(exportFiles);
  const store = new FlagStore(logger.child('store'));
  const flagsView = registerFlagsView({ store, logger: logger.child('tree') });
  const hoverSettings = new HoverSettingsByFolder();
  const codeFlags = new CodeFlags(store, logger.child('code'), hoverSettings);
  const diagnostics = new FlagDiagnosticsPublisher(codeFlags, logger.child('diagnostics'));
  const cleanupView = registerCleanupView({ store, codeFlags, logger: logger.child('cleanup') });
  void vscode.commands.executeCommand('setContext', ContextKeys.browser, true);

  context.subscriptions.push(
    channel,
    connection,
    store,
    hoverSettings,
    bindStoreToConnection(connection, store),
    registerLogAndSettingsCommands(channel),
    flagsView.disposable,
    registerFlagCommands({
      store,
      view: flagsView,
      logger: logger.child('flags'),
      flagAtCursor: () => flagAtCursor(codeFlags),
      codeFlags,
      relistFiles: () => connection.update(),
    }),
    registerFlagDetails({ store, view: flagsView, logger: logger.child('details') }),
    registerFlagHovers({ store, settings: hoverSettings, logger: logger.child('hovers') }),
    registerCheckTagCommand({ connection, store, logger: logger.child('checkTag') }),
    registerCompareEnvironments({ store, view: flagsView, logger: logger.child('compare') }),
    cleanupView.disposable,
    registerCodeFeatures(codeFlags, diagnostics, logger),
    registerCheckWorkspaceCommand({ flags: codeFlags, publisher: diagnostics, logger: logger.child('check') }),
    // As on the desktop, the first listing of the files starts once activate() has returned.
    afterActivation(() => void connection.update()),
  );

  const processType = typeof process;
  logger.info(`Browser build; typeof process: ${processType}.`);
  return { store, flagsView, diagnostics, processType, ...activationTimes(started, logger) };
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
