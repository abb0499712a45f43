// Type-checks, then packages the .vsix with @vscode/vsce into dist/; prints where it is and its size.
// Everything that decides what the package holds lives in package.json and .vscodeignore, so a plain
// `npx vsce package` on a fresh clone makes the same package (test/unit/vsix.test.ts checks one made that way):
// - `vscode:prepublish` builds the production bundle (dist/extension.js, minified, no source map) and, beside it,
//   dist/THIRD-PARTY-NOTICES.md: the licences of the packages bundled into it (undici, zod);
// - `"vsce": { "dependencies": false }`: the bundle holds undici and zod, so the package ships no node_modules;
// - `.vscodeignore` lets in only the bundle, its notices, the icons, the manifest, README, CHANGELOG and LICENSE.
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
const bundle = statSync('dist/extension.js').size;
const vsix = statSync(out).size;
console.log(`vsix: ${out} ${(vsix / 1024).toFixed(1)} KB (dist/extension.js ${(bundle / 1024).toFixed(1)} KB)`);
