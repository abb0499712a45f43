// @ts-check
'use strict';
const vscode = require('vscode');

/** @param {vscode.ExtensionContext} context */
function activate(context) {
  context.subscriptions.push(
    vscode.commands.registerCommand('e2eFixture.hello', () => {
      const greeting = vscode.workspace.getConfiguration('e2eFixture').get('greeting', 'Hello');
      const message = `${greeting} from the e2e fixture! SOME_VAR=${process.env.SOME_VAR ?? '(unset)'}`;
      void vscode.window.showInformationMessage(message);
      return message;
    }),
  );
}

function deactivate() {}

module.exports = { activate, deactivate };
