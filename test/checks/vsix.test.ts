/**
 * The .vsix as a fresh clone makes it with a plain `vsce package`: the repository's files (tracked, or new and not
 * ignored) copied to a temporary folder with no dist/, node_modules linked, then `vsce package` with no option but
 * `--out` (its vscode:prepublish builds the bundle), bounded by PACK_TIMEOUT_MS. `npm run package` runs the same
 * command after a type check. The package is then read as the zip it is:
 *   - the files: the bundle named by `main` with the one it loads on first need (core.js), the browser
 *     build named by `browser`, the manifest, README, CHANGELOG, LICENSE, the third-party notices and the icon; no
 *     sources, tests, node_modules, source maps or TypeScript; bundles that need no node_modules;
 *   - every image of its README and CHANGELOG resolves: to a file in the package, or an https URL (one into this
 *     repository must name a file of the repository);
 *   - the notices name every package that esbuild bundles into the four files (read from esbuild's metafile), with
 *     its licence text and copyright line.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { isBuiltin } from 'node:module';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Metafile } from 'esbuild';
import { build } from 'esbuild';
import { extensionBuild, webBuild, webWorkerBuild, workerBuild } from '../../esbuild';
import { readZip } from '../support/zip';

const root = path.join(__dirname, '..', '..');

/** The whole pack (esbuild + vsce) takes 10–30 s on 2 busy cores; the file's own limit is 2 min (test/run.ts). */
const PACK_TIMEOUT_MS = 90_000;
/**
 * Today about 760 KB, nearly all of it the minified bundles: the browser build (zod included) about 225 KB, and the
 * two workers, each with zod again (a worker cannot load core.js or the browser build, which need vscode), about
 * 100 KB each.
 */
const SIZE_BUDGET = 840 * 1024;
/** Folders of the extension that the package may hold. */
const SHIPPED_FOLDERS = ['dist', 'media', 'l10n'];

/** What a fresh clone holds: tracked files and new files git does not ignore. */
function repositoryFiles(): string[] {
  const listed = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' });
  if (listed.status !== 0) {
    throw new Error(`git ls-files failed in ${root} (this test packs the files of a clone): ${listed.error?.message ?? listed.stderr}`);
  }
  return listed.stdout.split('\0').filter((file) => file && fs.existsSync(path.join(root, file)));
}

/** Runs `command` in `cwd`; rejects with its output when it fails or outlives `ms` (killed with its children). */
function runBounded(command: string, args: string[], cwd: string, ms: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const timer = setTimeout(() => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
      reject(new Error(`${path.basename(command)} ${args.join(' ')} did not finish within ${ms / 1000} s (killed):\n${output.slice(-3000)}`));
    }, ms);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(output);
      else reject(new Error(`${path.basename(command)} ${args.join(' ')} failed (exit ${code}):\n${output.slice(-3000)}`));
    });
  });
}

/** The image sources of a Markdown text: `![alt](src "title")` and `<img src="…">`. */
function imageSources(markdown: string): string[] {
  const fromMarkdown = [...markdown.matchAll(/!\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1] as string);
  const fromHtml = [...markdown.matchAll(/<img\b[^>]*\bsrc\s*=\s*["']([^"']+)["']/gi)].map((m) => m[1] as string);
  return [...fromMarkdown, ...fromHtml];
}

/** The npm packages (folder → name) with code in the bundle, from esbuild's metafile. */
function bundledPackages(metafile: Metafile): Map<string, string> {
  const packages = new Map<string, string>();
  for (const input of Object.keys(metafile.inputs)) {
    const parts = path.resolve(root, input).split(path.sep);
    const at = parts.lastIndexOf('node_modules');
    if (at < 0) continue;
    const end = at + ((parts[at + 1] ?? '').startsWith('@') ? 3 : 2);
    packages.set(parts.slice(0, end).join(path.sep), parts.slice(at + 1, end).join('/'));
  }
  return packages;
}

const normalized = (text: string): string => text.replace(/\r\n?/g, '\n').trim();

/** The metafile of the production build (esbuild.js), built into `outdir`: desktop bundles, worker and browser build. */
async function productionMetafile(outdir: string): Promise<Metafile> {
  const desktop = (await build({ ...extensionBuild(true, outdir), absWorkingDir: root, logLevel: 'silent' })).metafile as Metafile;
  const web = (await build({ ...webBuild(true, path.join(outdir, 'web')), absWorkingDir: root, logLevel: 'silent' })).metafile as Metafile;
  const worker = (await build({ ...workerBuild(true, outdir), absWorkingDir: root, logLevel: 'silent' })).metafile as Metafile;
  const webWorker = (await build({ ...webWorkerBuild(true, path.join(outdir, 'web')), absWorkingDir: root, logLevel: 'silent' })).metafile as Metafile;
  return {
    inputs: { ...desktop.inputs, ...web.inputs, ...worker.inputs, ...webWorker.inputs },
    outputs: { ...desktop.outputs, ...web.outputs, ...worker.outputs, ...webWorker.outputs },
  };
}

describe('the .vsix a fresh clone packs', () => {
  let scratch = '';
  let vsixSize = 0;
  let entries = new Map<string, Buffer>();
  let files: string[] = [];
  const text = (name: string): string => {
    const content = entries.get(name);
    assert.ok(content, `${name} is not in the package`);
    return content.toString('utf8');
  };

  before(async () => {
    files = repositoryFiles();
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'unleash-vsix-'));
    const clone = path.join(scratch, 'clone');
    for (const file of files) {
      fs.mkdirSync(path.dirname(path.join(clone, file)), { recursive: true });
      fs.copyFileSync(path.join(root, file), path.join(clone, file));
    }
    assert.ok(!fs.existsSync(path.join(clone, 'dist')), 'dist/ is not part of a clone');
    fs.symlinkSync(fs.realpathSync(path.join(root, 'node_modules')), path.join(clone, 'node_modules'), 'dir');
    const out = path.join(scratch, 'plain.vsix');
    const vsce = path.join(root, 'node_modules', '@vscode', 'vsce', 'vsce');
    await runBounded(process.execPath, [vsce, 'package', '--out', out], clone, PACK_TIMEOUT_MS);
    const archive = fs.readFileSync(out);
    vsixSize = archive.length;
    entries = readZip(archive);
  });

  after(() => {
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  });

  it('holds the bundle named by main and the two it loads, the browser build, the manifest, README, CHANGELOG, LICENSE, notices and icon', () => {
    const manifest = JSON.parse(text('extension/package.json'));
    const main = `extension/${path.posix.normalize(manifest.main)}`;
    assert.equal(main, 'extension/dist/extension.js');
    const browser = `extension/${path.posix.normalize(manifest.browser)}`;
    assert.equal(browser, 'extension/dist/web/extension.js');
    for (const name of [
      main,
      browser,
      'extension/dist/core.js',
      'extension/dist/worker.js',
      `extension/${path.posix.normalize(manifest.icon)}`,
      'extension/package.json',
      'extension/package.nls.json',
      'extension/l10n/bundle.l10n.json',
      'extension/readme.md',
      'extension/changelog.md',
      'extension/LICENSE.txt',
      'extension/dist/THIRD-PARTY-NOTICES.md',
      'extension.vsixmanifest',
    ]) {
      assert.ok(entries.has(name), `${name} is missing from the package: ${[...entries.keys()].join(', ')}`);
    }
    assert.match(text('extension.vsixmanifest'), /<License>extension\/LICENSE\.txt<\/License>/);
  });

  it('holds nothing else: no sources, tests, node_modules, source maps or TypeScript', () => {
    const unexpected = [...entries.keys()].filter((name) => {
      if (!name.startsWith('extension/')) return !['extension.vsixmanifest', '[Content_Types].xml'].includes(name);
      const inside = name.slice('extension/'.length);
      const folder = inside.includes('/') ? inside.split('/')[0] : undefined;
      return (folder !== undefined && !SHIPPED_FOLDERS.includes(folder)) || /\.(ts|map|vsix)$/.test(name) || /(^|\/)\./.test(inside);
    });
    assert.deepEqual(unexpected, []);
    assert.deepEqual(
      [...entries.keys()].filter((name) => name.startsWith('extension/dist/')).sort(),
      ['extension/dist/THIRD-PARTY-NOTICES.md', 'extension/dist/core.js', 'extension/dist/extension.js', 'extension/dist/web/extension.js', 'extension/dist/web/worker.js', 'extension/dist/worker.js'],
    );
    assert.ok(vsixSize < SIZE_BUDGET, `the package is ${(vsixSize / 1024).toFixed(1)} KB, over its budget of ${SIZE_BUDGET / 1024} KB`);
  });

  it('ships the production bundles, which need nothing but each other, vscode and Node', async () => {
    for (const name of ['extension.js', 'core.js', 'worker.js', 'web/extension.js', 'web/worker.js']) {
      const bundle = text(`extension/dist/${name}`);
      assert.doesNotMatch(bundle, /sourceMappingURL/, `a development build of ${name} (with a source map link) was packaged`);
      const siblings = [...bundle.matchAll(/\brequire\(\s*["'](\.[^"']+)["']\s*\)/g)].map((m) => path.posix.join('extension/dist', path.posix.dirname(name), m[1] as string));
      assert.deepEqual(siblings.filter((file) => !entries.has(file)), [], `${name} requires files the package does not hold`);
    }
    // Every module the bundles import from outside, including those undici requires inside (esbuild's metafile).
    const outdir = path.join(scratch, 'metafile');
    const metafile = await productionMetafile(outdir);
    const outside = new Set(Object.values(metafile.outputs).flatMap((output) => output.imports.filter((entry) => entry.external).map((entry) => entry.path)));
    assert.ok(outside.has('vscode'));
    // `node:` modules count as Node's own even when this Node lacks them (undici loads node:sqlite only where it exists).
    const foreign = [...outside].filter((name) => name !== 'vscode' && !name.startsWith('node:') && !isBuiltin(name));
    assert.deepEqual(foreign, [], 'modules the package does not hold');
  });

  it('has a manifest the Marketplace can show: repository, bugs, homepage, banner, licence, at most 30 keywords', () => {
    const manifest = JSON.parse(text('extension/package.json'));
    assert.match(manifest.repository.url, /^https:\/\/github\.com\/[\w-]+\/[\w-]+\.git$/);
    assert.match(manifest.bugs.url, /^https:\/\/github\.com\/.+\/issues$/);
    assert.match(manifest.homepage, /^https:\/\//);
    assert.match(manifest.galleryBanner.color, /^#[0-9a-f]{6}$/i);
    assert.equal(manifest.license, 'MIT');
    assert.match(text('extension/LICENSE.txt'), /^MIT License/);
    assert.ok(Array.isArray(manifest.keywords) && manifest.keywords.length > 0 && manifest.keywords.length <= 30);
    assert.equal(manifest.scripts['vscode:prepublish'], 'node esbuild.js --production');
  });

  it('shows every image of its README and CHANGELOG: a file in the package, or https', () => {
    const manifest = JSON.parse(text('extension/package.json'));
    const repositoryRaw = `${(manifest.repository.url as string).replace(/\.git$/, '')}/raw/HEAD/`;
    const tracked = new Set(files);
    const images = ['extension/readme.md', 'extension/changelog.md'].flatMap((doc) => imageSources(text(doc)).map((src) => ({ doc, src })));
    assert.ok(images.length >= 5, `the README shows its screenshots (found ${images.length} images)`);
    for (const { doc, src } of images) {
      if (src.startsWith(repositoryRaw)) {
        const file = decodeURI(src.slice(repositoryRaw.length));
        assert.ok(tracked.has(file), `${doc}: ${src} names ${file}, which the repository does not hold`);
      } else if (/^[a-z][\w+.-]*:/i.test(src)) {
        assert.match(src, /^https:\/\//, `${doc}: ${src} is neither https nor a file of the package`);
      } else {
        const inPackage = path.posix.join(path.posix.dirname(doc), decodeURI(src.split(/[?#]/)[0] as string));
        assert.ok(entries.has(inPackage), `${doc}: ${src} is not in the package (${inPackage})`);
      }
    }
  });

  it('gives the licence text and copyright of every package bundled into the four files of dist/', async () => {
    const metafile = await productionMetafile(path.join(scratch, 'notices'));
    const packages = bundledPackages(metafile);
    assert.deepEqual([...packages.values()].sort(), ['@vscode/l10n', 'undici', 'zod']);
    const notices = normalized(text('extension/dist/THIRD-PARTY-NOTICES.md'));
    for (const [dir, name] of packages) {
      const { version } = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string };
      assert.ok(notices.includes(`## ${name} ${version}\n`), `the notices do not name ${name} ${version}`);
      // A package that ships no licence has its repository's kept in scripts/licences/<name>/ (see its README).
      const supplied = path.join(root, 'scripts', 'licences', ...name.split('/'));
      const licenceDir = fs.readdirSync(dir).some((file) => /^licen[cs]e(\.(md|txt))?$/i.test(file)) ? dir : supplied;
      const licence = fs.existsSync(licenceDir) ? fs.readdirSync(licenceDir).find((file) => /^licen[cs]e(\.(md|txt))?$/i.test(file)) : undefined;
      assert.ok(licence, `${name} ships no LICENSE file, and scripts/licences/${name}/ has none`);
      const licenceText = normalized(fs.readFileSync(path.join(licenceDir, licence), 'utf8'));
      assert.match(licenceText, /copyright/i, `${name}'s licence has no copyright line`);
      assert.ok(notices.includes(licenceText), `the notices lack ${name}'s licence text (${licence})`);
    }
  });
});
