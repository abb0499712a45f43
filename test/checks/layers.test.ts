/**
 * The layers of src/ are its folders, and imports only go down:
 *
 *   base        src/base/                    plain Node helpers, ids, the logger interface; imports nothing of ours
 *   api         src/api/                     the Admin API client
 *   model       src/model/                   what the extension knows and says, with no editor
 *   services    src/services/                the editor's state: settings, connection, token, files, the log
 *   ui          src/views/ hovers/ code/     what the editor shows: views, hovers, language features
 *   commands    src/commands/                what the user runs
 *   extension   src/extension.ts             the composition roots (desktop; src/extension.browser.ts, browser)
 *
 * A file may import its own layer or a lower one (views, hovers and code are one layer and may use each other);
 * only services and above import 'vscode'; and no module imports itself through others (no cycles, type-only
 * imports included). Imports are read with the TypeScript compiler's own pre-processor, so `import type`,
 * `export … from`, `import()` and `require()` all count. docs/architecture.md draws the picture.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import * as ts from 'typescript';

const root = path.join(__dirname, '..', '..');
const src = path.join(root, 'src');

const LAYERS = ['base', 'api', 'model', 'services', 'ui', 'commands', 'extension'] as const;
type Layer = (typeof LAYERS)[number];

/** Where each top-level entry of src/ sits. A new folder must be placed here (a test says so). */
const PLACES: Record<string, Layer> = {
  'base': 'base',
  'api': 'api',
  'model': 'model',
  'services': 'services',
  'views': 'ui',
  'hovers': 'ui',
  'code': 'ui',
  'commands': 'commands',
  'extension.ts': 'extension',
  'extension.browser.ts': 'extension',
  // The workers (desktop's thread, browser's web worker): the model's jobs, with no editor.
  'worker.ts': 'model',
  'worker.browser.ts': 'model',
};
const MAY_USE_VSCODE: ReadonlySet<Layer> = new Set(['services', 'ui', 'commands', 'extension']);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? sourceFiles(full) : full.endsWith('.ts') ? [full] : [];
  });
}

interface SourceFile {
  /** Relative to src/, with `/`. */
  name: string;
  layer: Layer | undefined;
  /** Relative to src/: our own modules it imports. */
  imports: string[];
  /** Bare specifiers ('vscode', 'undici', 'node:fs'…). */
  packages: string[];
}

function relative(file: string): string {
  return path.relative(src, file).split(path.sep).join('/');
}

function layerOf(name: string): Layer | undefined {
  return PLACES[name.split('/')[0] as string];
}

/** The module a relative specifier names: `x.ts` or `x/index.ts`. */
function resolve(from: string, specifier: string): string {
  const base = path.resolve(path.dirname(from), specifier);
  for (const candidate of [`${base}.ts`, path.join(base, 'index.ts')]) if (existsSync(candidate)) return candidate;
  throw new Error(`${relative(from)} imports ${specifier}, which is no file of src/`);
}

function readSource(file: string): SourceFile {
  const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  const specifiers = info.importedFiles.map((ref) => ref.fileName);
  const name = relative(file);
  return {
    name,
    layer: layerOf(name),
    imports: specifiers.filter((s) => s.startsWith('.')).map((s) => relative(resolve(file, s))),
    packages: specifiers.filter((s) => !s.startsWith('.')),
  };
}

const files = sourceFiles(src).map(readSource);
const byName = new Map(files.map((file) => [file.name, file]));

/** Every cycle of the import graph, each once, as `a.ts → b.ts → a.ts`. */
function cycles(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const found = new Set<string>();
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string): void => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') {
        const loop = stack.slice(stack.indexOf(next));
        // The same cycle found from another entry point reads the same once rotated to its smallest member.
        const start = loop.indexOf([...loop].sort()[0] as string);
        found.add([...loop.slice(start), ...loop.slice(0, start), loop[start]].join(' → '));
      } else if (!state.has(next)) {
        visit(next);
      }
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of graph.keys()) if (!state.has(node)) visit(node);
  return [...found].sort();
}

describe('layers: the folders of src/', () => {
  it('places every file of src/ in a layer', () => {
    assert.ok(files.length > 50, `read ${files.length} files`);
    assert.deepEqual(files.filter((file) => file.layer === undefined).map((file) => file.name), [], 'place these in PLACES');
  });

  it('imports only from its own layer or a lower one (base < api < model < services < ui < commands < extension)', () => {
    const upward = files.flatMap((file) =>
      file.imports
        .filter((target) => LAYERS.indexOf(byName.get(target)?.layer as Layer) > LAYERS.indexOf(file.layer as Layer))
        .map((target) => `${file.name} (${file.layer}) imports ${target} (${byName.get(target)?.layer})`),
    );
    assert.deepEqual(upward, []);
  });

  it('uses vscode only from services up', () => {
    const offenders = files.filter((file) => file.packages.includes('vscode') && !MAY_USE_VSCODE.has(file.layer as Layer));
    assert.deepEqual(offenders.map((file) => `${file.name} (${file.layer})`), []);
    assert.ok(files.some((file) => file.packages.includes('vscode')), 'the reader sees vscode imports at all');
  });

  it('has no import cycles', () => {
    assert.deepEqual(cycles(new Map(files.map((file) => [file.name, file.imports]))), []);
  });
});

describe('layers: the checks themselves', () => {
  it('see an upward import, a vscode import and every kind of import statement', () => {
    const text = [
      "import type { A } from './a';",
      "export { B } from './b';",
      "const c = require('./c');",
      "const d = import('./d');",
      "import * as vscode from 'vscode';",
    ].join('\n');
    assert.deepEqual(ts.preProcessFile(text, true, true).importedFiles.map((ref) => ref.fileName), ['./a', './b', './c', './d', 'vscode']);
  });

  it('find a cycle, once, whichever module the walk starts from', () => {
    const graph = new Map([
      ['x.ts', ['y.ts']],
      ['y.ts', ['z.ts']],
      ['z.ts', ['x.ts', 'w.ts']],
      ['w.ts', []],
      ['v.ts', ['y.ts']],
    ]);
    assert.deepEqual(cycles(graph), ['x.ts → y.ts → z.ts → x.ts']);
    assert.deepEqual(cycles(new Map([['a.ts', ['a.ts']]])), ['a.ts → a.ts']);
    assert.deepEqual(cycles(new Map([['a.ts', ['b.ts']], ['b.ts', []]])), []);
  });
});
