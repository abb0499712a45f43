// Entry point of the e2e host: a real VS Code (code-server 4.100.3 = VS Code 1.100.3 in the browser) driven by
// Debian's Chromium through playwright-core. See test/e2e/README.md.
//
//   processes.ts   process trees: started in their own groups, killed by pid/pgid and run marker, exit hooks
//   codeServer.ts  a run's folders, env and settings; installExtension, startCodeServer, workbenchUrl
//   browser.ts     Chromium on the workbench: openWorkbench
//   suite.ts       runSuiteInEditor: a run() suite in the extension host
//   ui.ts          what a person does in the workbench (palette, notifications, screenshots)
export { processesOfRun } from './processes';
export { startCodeServer, type CodeServer } from './codeServer';
export { openWorkbench, type EditorSession } from './browser';
export { runSuiteInEditor, type RunSuiteOptions } from './suite';
export { runCommandFromPalette, screenshot, waitForNotification } from './ui';
