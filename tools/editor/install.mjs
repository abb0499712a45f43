#!/usr/bin/env node
// Installs the e2e host tools (code-server + playwright-core) into tools/editor/node_modules.
//
//   node tools/editor/install.mjs          # fast no-op when already complete
//   node tools/editor/install.mjs --force  # reinstall from scratch
//   node tools/editor/install.mjs --no-browser  # code-server only: Chromium is not required (npm run demo)
//
// Works offline except for the npm registry:
//  * @vscode/ripgrep's postinstall (inside code-server's bundled VS Code) would download rg
//    from GitHub; we put Debian's /usr/bin/rg into its download cache first.
//  * npm 11.19 blocks dependency install scripts unless allowed. The host package.json's
//    `allowScripts` covers the host tree (code-server's postinstall, argon2). code-server's
//    postinstall runs its own nested `npm install` in lib/vscode, a separate npm project that
//    has no allowScripts; we give that project a `.npmrc` with `allow-scripts=...` (the
//    `--allow-scripts` flag / npm_config_allow_scripts env are rejected by npm in
//    project-scoped installs, and would leak into nested installs).
//  * as root, code-server's postinstall insists on npm_config_unsafe_perm=true.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensurePackages } from '../../scripts/debianPackages.mjs';

const HOST = path.dirname(fileURLToPath(import.meta.url));
const NM = path.join(HOST, 'node_modules');
const CS = path.join(NM, 'code-server');
const VSCODE = path.join(CS, 'lib', 'vscode');
const MARKER = path.join(NM, '.e2e-host-complete');

// Pinned by code-server 4.100.3 -> lib/vscode/npm-shrinkwrap.json -> @vscode/ripgrep 1.15.11,
// whose lib/postinstall.js asks for VERSION 'v13.0.0-10' and target x86_64-unknown-linux-musl.
const RIPGREP_PKG_VERSION = '1.15.11';
const RIPGREP_TAG = 'v13.0.0-10';

// Native modules of VS Code's server (lib/vscode) whose install scripts must run on Linux.
// (@vscode/windows-* are Windows-only and stay skipped.)
const VSCODE_ALLOW_SCRIPTS = [
  '@parcel/watcher',
  '@vscode/deviceid',
  '@vscode/ripgrep',
  '@vscode/spdlog',
  'kerberos',
  'native-watchdog',
  'node-pty',
];

// Files whose presence means the install is complete and usable.
const REQUIRED_FILES = [
  path.join(NM, 'playwright-core', 'package.json'),
  path.join(CS, 'out', 'node', 'entry.js'),
  path.join(VSCODE, 'node_modules', '@vscode', 'ripgrep', 'bin', 'rg'),
  path.join(VSCODE, 'node_modules', 'node-pty', 'build', 'Release', 'pty.node'),
  path.join(VSCODE, 'node_modules', '@vscode', 'spdlog', 'build', 'Release', 'spdlog.node'),
  path.join(VSCODE, 'node_modules', 'native-watchdog', 'build', 'Release', 'watchdog.node'),
  path.join(VSCODE, 'node_modules.asar'),
  path.join(VSCODE, 'extensions', 'node_modules', 'typescript', 'package.json'),
];

const log = (msg) => console.log(`[e2e-host install] ${msg}`);

function fail(msg) {
  console.error(`[e2e-host install] ERROR: ${msg}`);
  process.exit(1);
}

function which(cmd) {
  const r = spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
}

/** What the install depends on: the lock, what package.json pins and allows (not its description), the Node ABI. */
function fingerprint() {
  const h = createHash('sha256');
  const pkg = JSON.parse(fs.readFileSync(path.join(HOST, 'package.json'), 'utf8'));
  h.update(JSON.stringify({ dependencies: pkg.dependencies, allowScripts: pkg.allowScripts, engines: pkg.engines }));
  h.update(fs.readFileSync(path.join(HOST, 'package-lock.json')));
  h.update(process.version.split('.')[0]); // native modules are built for one Node ABI
  return h.digest('hex');
}

function isComplete() {
  try {
    if (fs.readFileSync(MARKER, 'utf8').trim() !== fingerprint()) return false;
  } catch {
    return false;
  }
  return REQUIRED_FILES.every((f) => fs.existsSync(f));
}

function preflight() {
  const major = Number(process.versions.node.split('.')[0]);
  if (major !== 20) fail(`code-server 4.100.3 needs Node.js 20 (this is ${process.version}).`);
  // Debian packages the build needs (and Chromium for the browser tests), installed here when this process may.
  const problem = ensurePackages(['host', ...(process.argv.includes('--no-browser') ? [] : ['e2e'])], { log });
  if (problem) fail(`missing prerequisites: ${problem}`);
}

/** How long one install step may take: then it is killed with its children, a failure. */
const STEP_TIMEOUT_MS = 20 * 60_000;

function run(cmd, args, opts) {
  return new Promise((resolve, reject) => {
    log(`$ ${cmd} ${args.join(' ')}  (in ${path.relative(process.cwd(), opts.cwd) || '.'})`);
    // Its own process group, so that a step that hangs is killed with every process it started (Ctrl+C too).
    const child = spawn(cmd, args, { stdio: 'inherit', ...opts, detached: true });
    const killGroup = () => {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    const onSignal = () => {
      killGroup();
      process.exit(130);
    };
    process.once('SIGINT', onSignal).once('SIGTERM', onSignal);
    const timer = setTimeout(() => {
      killGroup();
      reject(new Error(`${cmd} ${args.join(' ')} did not finish within ${STEP_TIMEOUT_MS / 60_000} min (killed)`));
    }, STEP_TIMEOUT_MS);
    const settled = () => {
      clearTimeout(timer);
      process.off('SIGINT', onSignal).off('SIGTERM', onSignal);
    };
    child.on('error', (error) => {
      settled();
      reject(error);
    });
    child.on('exit', (code, signal) => {
      settled();
      if (code === 0) resolve();
      else reject(new Error(`${cmd} ${args.join(' ')} exited with ${code ?? signal}`));
    });
  });
}

async function main() {
  const t0 = Date.now();
  const force = process.argv.includes('--force');
  if (!force && isComplete()) {
    log(`already complete (${Date.now() - t0} ms)`);
    return;
  }
  preflight();

  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-host-install-'));
  try {
    // 1. ripgrep download cache, so @vscode/ripgrep's postinstall never goes to GitHub.
    const cacheDir = path.join(tmp, `vscode-ripgrep-cache-${RIPGREP_PKG_VERSION}`);
    const stage = path.join(tmp, 'rg-stage');
    fs.mkdirSync(cacheDir, { recursive: true });
    fs.mkdirSync(stage);
    fs.copyFileSync(which('rg'), path.join(stage, 'rg'));
    fs.chmodSync(path.join(stage, 'rg'), 0o755);
    const asset = path.join(cacheDir, `ripgrep-${RIPGREP_TAG}-x86_64-unknown-linux-musl.tar.gz`);
    const tar = spawnSync('tar', ['czf', asset, '-C', stage, 'rg'], { stdio: 'inherit' });
    if (tar.status !== 0) fail('could not create the ripgrep cache tarball');

    const env = {
      ...process.env,
      TMPDIR: tmp, // os.tmpdir() of every script below -> the rg cache above; nothing left in /tmp
      npm_config_unsafe_perm: 'true', // code-server's postinstall refuses to run as root without it
      npm_config_yes: 'true',
      npm_config_audit: 'false',
      npm_config_fund: 'false',
      npm_config_update_notifier: 'false',
      // prebuild-install / node-pre-gyp: don't try to download prebuilt binaries (no internet); compile.
      npm_config_build_from_source: 'true',
      JOBS: 'max', // node-gyp: compile with all cores
    };

    // 2. Extract the whole tree without running any script.
    await run('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: HOST, env });

    // 3. Allow the install scripts of the nested VS Code project (see header).
    fs.writeFileSync(
      path.join(VSCODE, '.npmrc'),
      `# written by tools/editor/install.mjs\nallow-scripts=${VSCODE_ALLOW_SCRIPTS.join(',')}\n`,
    );

    // 4. Run the allowed install scripts (package.json#allowScripts): argon2, and code-server's
    //    postinstall, which npm-installs lib/vscode and lib/vscode/extensions.
    await run('npm', ['rebuild', '--foreground-scripts'], { cwd: HOST, env });

    const missing = REQUIRED_FILES.filter((f) => !fs.existsSync(f));
    if (missing.length) fail(`install finished but files are missing:\n  ${missing.join('\n  ')}`);
    fs.writeFileSync(MARKER, fingerprint() + '\n');
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  log(`done in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

main().catch((err) => fail(err instanceof Error ? err.message : String(err)));
