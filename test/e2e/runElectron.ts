// Runs the same in-editor suite (a module exporting run()) in desktop VS Code through
// @vscode/test-electron, for machines that can download VS Code (this one cannot: use
// tools/editor, i.e. runSuiteInEditor(), here).
//
//   node --import tsx test/e2e/runElectron.ts [--extension <dir>] [--suite <file>] [--workspace <dir>] [--vscode <version>]
//
// Defaults: the fixture extension and its suite (test/e2e/fixture-extension) with the env and settings
// that suite expects. Options mirror runSuiteInEditor(): env reaches the extension host through
// `extensionTestsEnv`; settings go to <user-data-dir>/User/settings.json like in code-server.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runTests, TestRunFailedError } from '@vscode/test-electron';
import type { RunSuiteOptions } from '../../tools/editor';

/** Same VS Code as code-server 4.100.3 in tools/editor. */
export const VSCODE_VERSION = '1.100.3';

/** What runSuiteInEditor() takes, less its code-server bounds, and the VS Code version to download. */
export interface ElectronSuiteOptions extends Pick<RunSuiteOptions, 'extensionDevelopmentPath' | 'suitePath' | 'workspace' | 'env' | 'settings'> {
  /** VS Code version to download; default VSCODE_VERSION. */
  version?: string;
}

export interface ElectronSuiteResult {
  exitCode: number;
  ms: number;
}

export async function runSuiteInElectron(options: ElectronSuiteOptions): Promise<ElectronSuiteResult> {
  const t0 = Date.now();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-electron-'));
  try {
    const userDataDir = path.join(tmp, 'user-data');
    const extensionsDir = path.join(tmp, 'extensions');
    fs.mkdirSync(path.join(userDataDir, 'User'), { recursive: true });
    fs.mkdirSync(extensionsDir, { recursive: true });
    fs.writeFileSync(
      path.join(userDataDir, 'User', 'settings.json'),
      JSON.stringify(
        {
          'workbench.startupEditor': 'none',
          'telemetry.telemetryLevel': 'off',
          'update.mode': 'none',
          'extensions.autoCheckUpdates': false,
          'extensions.autoUpdate': false,
          'security.workspace.trust.enabled': false,
          ...(options.settings ?? {}),
        },
        null,
        2,
      ),
    );
    let exitCode: number;
    try {
      exitCode = await runTests({
        version: options.version ?? VSCODE_VERSION,
        extensionDevelopmentPath: path.resolve(options.extensionDevelopmentPath),
        extensionTestsPath: path.resolve(options.suitePath),
        extensionTestsEnv: options.env ?? {},
        // The first launch arg is the folder to open; our own profile dirs keep the run isolated
        // (runTests only adds its .vscode-test defaults when these are absent).
        launchArgs: [
          path.resolve(options.workspace),
          `--user-data-dir=${userDataDir}`,
          `--extensions-dir=${extensionsDir}`,
          '--disable-extensions',
          '--disable-telemetry',
        ],
      });
    } catch (err) {
      if (err instanceof TestRunFailedError) exitCode = err.code ?? 1;
      else throw err;
    }
    return { exitCode, ms: Date.now() - t0 };
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

function argValue(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const fixture = path.join(__dirname, 'fixture-extension');
  const extension = argValue(args, '--extension');
  const usingFixture = extension === undefined;
  let workspace = argValue(args, '--workspace');
  let scratch: string | undefined;
  if (!workspace) {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-electron-ws-'));
    workspace = scratch;
  }
  try {
    const options: ElectronSuiteOptions = {
      extensionDevelopmentPath: extension ?? fixture,
      suitePath: argValue(args, '--suite') ?? path.join(fixture, 'suite.js'),
      workspace,
    };
    const version = argValue(args, '--vscode');
    if (version) options.version = version;
    if (usingFixture) {
      options.env = { SOME_VAR: 'value-from-the-harness' };
      options.settings = { 'e2eFixture.greeting': 'Howdy' };
    }
    const result = await runSuiteInElectron(options);
    console.log(`[runElectron] exit code ${result.exitCode} after ${result.ms} ms`);
    process.exitCode = result.exitCode;
  } finally {
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  }
}

if (require.main === module) {
  main().catch((err: unknown) => {
    console.error('[runElectron] failed:', err);
    process.exitCode = 1;
  });
}
