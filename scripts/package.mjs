// Type-checks, then packages the .vsix with @vscode/vsce into dist/; prints where it is and its size.
// Everything that decides what the package holds lives in package.json and .vscodeignore, so a plain
// `npx vsce package` on a fresh clone makes the same package (test/checks/vsix.test.ts checks one made that way):
// - `vscode:prepublish` builds the production bundles (dist/extension.js, and dist/core.js loaded on first need;
//   minified, no source maps; see esbuild.js) and, beside them, dist/THIRD-PARTY-NOTICES.md: the
//   licences of the packages bundled into them (undici, zod, @vscode/l10n);
// - `"vsce": { "dependencies": false }`: the bundles hold undici and zod, so the package ships no node_modules;
// - `.vscodeignore` lets in only the bundles, their notices, the icons, the manifest, README, CHANGELOG and LICENSE.
// README images: vsce rewrites the README's relative links against `repository` (github.com/…/raw/HEAD/…), so the
// README inside the package points at https URLs of docs/screenshots/ in the repository, which the Marketplace,
// VS Code's extension page (before and after install) and Open VSX all show. Shipping the screenshots instead would
// show them offline too, but they are 1280×800 captures of 120–190 KB each: the five the README shows would make the
// package about 3.5 times larger, for a page that is read online in practice.
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';

const manifest = JSON.parse(readFileSync('package.json', 'utf8'));
const out = `dist/${manifest.name}-${manifest.version}.vsix`;
const run = (command, args) => execFileSync(command, args, { stdio: 'inherit' });

run('npx', ['tsc', '--noEmit', '-p', '.']);
run('npx', ['vsce', 'package', '--out', out]);
const kb = (file) => `${(statSync(file).size / 1024).toFixed(1)} KB`;
const bundles = ['dist/extension.js', 'dist/core.js'].map((file) => `${file} ${kb(file)}`).join(', ');
console.log(`vsix: ${out} ${kb(out)} (${bundles})`);
