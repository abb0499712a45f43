// Builds the production bundle and packages the .vsix with @vscode/vsce; prints where it is and its size.
// The bundle holds undici and zod, so the package ships no node_modules (--no-dependencies).
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';

const manifest = JSON.parse(readFileSync('package.json', 'utf8'));
const out = `dist/${manifest.name}-${manifest.version}.vsix`;
const run = (command, args) => execFileSync(command, args, { stdio: 'inherit' });

run('npx', ['tsc', '--noEmit', '-p', '.']);
run('node', ['esbuild.js', '--production']);
run('npx', ['vsce', 'package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '--no-rewrite-relative-links', '--out', out]);
const bundle = statSync('dist/extension.js').size;
const vsix = statSync(out).size;
console.log(`vsix: ${out} ${(vsix / 1024).toFixed(1)} KB (dist/extension.js ${(bundle / 1024).toFixed(1)} KB)`);
