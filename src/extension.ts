/**
 * The composition root: builds each service once, hands it to the features that need it, and registers one
 * Disposable per feature. It runs in every window (`onStartupFinished`: providers must be registered before the first
 * hover), so it sends nothing: the store reads the flags the first time something needs them, and the core bundle
 * (dist/core.js: the client, the export file reader) is loaded only then.
 */
import * as vscode from 'vscode';
import { flagAtCursor } from './code/flagAtCursor';
import { registerCodeFeatures } from './code/codeFeatures';
import { ExportDiagnostics } from './code/exportDiagnostics';
import { FlagDiagnosticsPublisher } from './code/flagDiagnosticsPublisher';
import { registerCheckTagCommand } from './commands/checkTag';
import { registerCheckWorkspaceCommand } from './commands/checkWorkspace';
import { registerCompareEnvironments } from './commands/compareEnvironments';
import { registerCompareExport } from './commands/compareExport';
import { registerConnectionCommands } from './commands/connection';
import { registerExportCommand } from './commands/exportEnvironment';
import { registerFlagDetails } from './commands/flagDetails';
import { registerLogAndSettingsCommands } from './commands/logAndSettings';
import { registerFlagCommands } from './commands/flags';
import { LOG_CHANNEL_NAME } from './base/constants';
import { registerFlagHovers } from './hovers/flagHoverProvider';
import { FlagActivity } from './model/activity/flagActivity';
import { FlagStore } from './model/store/flagStore';
import { activationTimes, afterActivation } from './services/activation';
import { ServerApprovals } from './services/approvals';
import { KnownProjects } from './services/knownProjects';
import { bindStoreToConnection } from './services/binding';
import { CodeFlags } from './services/codeFlags';
import { Connection } from './services/connection';
import { ExportDrift } from './services/exportDrift';
import { HoverSettingsByFolder } from './services/hoverSettingsByFolder';
import { TokenStore } from './services/tokens';
import { bundledWorkerJobs } from './services/workerJobs';
import { configureL10n } from './services/l10n';
import { createLogger } from './services/logger';
import { registerCleanupView, type CleanupView } from './views/cleanupView';
import { registerExportsView, type ExportsView } from './views/exportsView';
import { registerFlagsView, type FlagsView } from './views/flagsTree';
import { registerStatusBar, type StatusBar } from './views/statusBar';

/** What activate() returns: the store and the tree as the user sees them, for the in-editor tests. */
export interface ExtensionApi {
  store: FlagStore;
  flagsView: FlagsView;
  statusBar: StatusBar;
  diagnostics: FlagDiagnosticsPublisher;
  /** Export files against the server: the reports, their view and status bar item, their diagnostics. */
  exportDrift: ExportDrift;
  exportsView: ExportsView;
  exportDiagnostics: ExportDiagnostics;
  cleanupView: CleanupView;
  /**
   * Activation as VS Code counts it: loading the bundle (from its first statement to its last) and activate(). What
   * VS Code does between the two (it reads the extension's storage first) is not counted.
   */
  activationMs: number;
  /** The part of it spent loading the bundle; 0 under tsx (no bundle). */
  bundleLoadMs: number;
}

export function activate(context: vscode.ExtensionContext): ExtensionApi {
  const started = performance.now();
  configureL10n();
  const channel = vscode.window.createOutputChannel(LOG_CHANNEL_NAME, { log: true });
  const logger = createLogger(channel);
  const tokens = new TokenStore(context.secrets);
  const approvals = new ServerApprovals(context.globalState);
  // Reading export files (offline mode, the drift check) happens in a worker thread, started on first need.
  const jobs = bundledWorkerJobs(context.extensionPath, vscode.l10n.bundle);
  const connection = new Connection(tokens, approvals, logger.child('connection'), new KnownProjects(context.globalState), jobs);
  const store = new FlagStore(logger.child('store'));
  const activity = new FlagActivity(store, logger.child('activity'));
  const flagsView = registerFlagsView({ store, logger: logger.child('tree'), activity });
  const hoverSettings = new HoverSettingsByFolder();
  const codeFlags = new CodeFlags(store, logger.child('code'), hoverSettings);
  const diagnostics = new FlagDiagnosticsPublisher(codeFlags, logger.child('diagnostics'));
  const statusBar = registerStatusBar(store);
  const exportDrift = new ExportDrift(store, logger.child('exports'), jobs);
  const exportsView = registerExportsView(exportDrift);
  const exportDiagnostics = new ExportDiagnostics(exportDrift, logger.child('exports'));
  const cleanupView = registerCleanupView({ store, codeFlags, logger: logger.child('cleanup') });

  context.subscriptions.push(
    channel,
    jobs,
    tokens,
    connection,
    store,
    activity,
    hoverSettings,
    bindStoreToConnection(connection, store),
    registerConnectionCommands({ connection, tokens, approvals, logger: logger.child('commands'), store }),
    registerLogAndSettingsCommands(channel),
    flagsView.disposable,
    registerFlagCommands({
      store,
      view: flagsView,
      logger: logger.child('flags'),
      flagAtCursor: () => flagAtCursor(codeFlags),
      codeFlags,
    }),
    registerFlagDetails({ store, view: flagsView, logger: logger.child('details'), activity }),
    registerFlagHovers({ store, settings: hoverSettings, logger: logger.child('hovers'), activity }),
    registerCheckTagCommand({ connection, store, logger: logger.child('checkTag') }),
    registerExportCommand({ connection, store, logger: logger.child('export') }),
    exportDrift,
    exportsView.disposable,
    exportDiagnostics,
    registerCompareExport({ connection, store, drift: exportDrift, logger: logger.child('export') }),
    registerCompareEnvironments({ store, view: flagsView, logger: logger.child('compare') }),
    cleanupView.disposable,
    registerCodeFeatures(codeFlags, diagnostics, logger),
    registerCheckWorkspaceCommand({ flags: codeFlags, publisher: diagnostics, logger: logger.child('check') }),
    statusBar,
    // activate() only registers: the first evaluation (settings, token, the export files listed) starts once it has
    // returned. Commands run meanwhile wait for it (Connection.settled).
    afterActivation(() => void connection.update()),
  );
  return { store, flagsView, statusBar, diagnostics, exportDrift, exportsView, exportDiagnostics, cleanupView, ...activationTimes(started, logger) };
}
