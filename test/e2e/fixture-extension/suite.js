// @ts-check
// Minimal in-editor suite following the @vscode/test-electron contract: export run(): Promise<void>.
// Rejecting (e.g. a failed assertion) makes the editor exit with code 1.
'use strict';
const assert = require('node:assert/strict');
const vscode = require('vscode');

async function run() {
  const ext = vscode.extensions.getExtension('e2e-fixture.e2e-fixture');
  assert.ok(ext, 'fixture extension is loaded');
  await ext.activate();

  const commands = await vscode.commands.getCommands(true);
  assert.ok(commands.includes('e2eFixture.hello'), 'e2eFixture.hello is registered');
  console.log('[suite] command registered');

  assert.equal(process.env.SOME_VAR, 'value-from-the-harness', 'SOME_VAR reached the extension host');
  console.log(`[suite] SOME_VAR=${process.env.SOME_VAR}`);

  const greeting = vscode.workspace.getConfiguration('e2eFixture').get('greeting');
  assert.equal(greeting, 'Howdy', 'user settings.json reached the extension');

  const message = await vscode.commands.executeCommand('e2eFixture.hello');
  assert.equal(message, 'Howdy from the e2e fixture! SOME_VAR=value-from-the-harness');

  const folders = vscode.workspace.workspaceFolders ?? [];
  assert.equal(folders.length, 1, 'one workspace folder is open');
  console.log(`[suite] workspace=${folders[0].uri.toString()}`);
  console.log('[suite] all checks passed');
}

module.exports = { run };
