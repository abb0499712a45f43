// Imported for its effect, above the imports of src/ modules that import 'vscode': from here on `require('vscode')`
// answers the stand-in (fakeVscode.ts). For code that loads those modules before it runs, not in a test's before().
import { installFakeVscode } from './fakeVscode';

installFakeVscode();
