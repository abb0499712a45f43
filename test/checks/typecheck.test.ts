/**
 * What `npm run build` and `npm run package` type-check (`tsc --noEmit -p .`) needs nothing but `npm ci`: the root
 * project's program, its imports followed, holds no file of the editor host's own install (tools/editor/node_modules:
 * code-server and playwright-core, which only `node tools/editor/install.mjs` brings) and no e2e test; those are
 * `npm run typecheck:e2e`'s.
 */
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import ts from 'typescript';

const root = path.join(__dirname, '..', '..');

test('the root project reaches no file of the editor host install and no e2e test', () => {
  const configFile = ts.readConfigFile(path.join(root, 'tsconfig.json'), (file) => ts.sys.readFile(file));
  const config = ts.parseJsonConfigFileContent(configFile.config, ts.sys, root);
  const program = ts.createProgram({ rootNames: config.fileNames, options: config.options });
  const reached = program.getSourceFiles().map((file) => path.relative(root, file.fileName));
  assert.ok(reached.some((file) => file === path.join('tools', 'editor', 'codeServer.ts')), 'the program holds the host files the demo uses');
  assert.deepEqual(
    reached.filter((file) => file.startsWith(path.join('tools', 'editor', 'node_modules')) || file.startsWith(path.join('test', 'e2e')) || /playwright/.test(file)),
    [],
  );
});
