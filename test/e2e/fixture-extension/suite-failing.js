// @ts-check
// Deliberately failing variant of suite.js: proves a failed assertion comes back as exit code 1.
'use strict';
const assert = require('node:assert/strict');
const vscode = require('vscode');

async function run() {
  const commands = await vscode.commands.getCommands(true);
  console.log('[suite-failing] about to fail on purpose');
  assert.ok(commands.includes('e2eFixture.doesNotExist'), 'deliberate failure: e2eFixture.doesNotExist is not a command');
}

module.exports = { run };
