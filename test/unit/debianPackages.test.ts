/**
 * scripts/debianPackages.mjs: which Debian packages are missing, and what the demo, CI and the e2e host install do
 * about them on root / sudo / neither, with apt-get or without, through an injected probe and runner.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ensurePackages, type Host, type Probe } from '../../scripts/debianPackages.mjs';

/** A machine with these commands and files; `apt-get install` (through the runner) adds the packages' commands. */
function machine(commands: string[], files: string[] = []) {
  const have = new Set([...commands, ...files]);
  const probe: Probe = { command: (name) => have.has(name), file: (file) => have.has(file) };
  const ran: string[] = [];
  const provides: Record<string, string> = { ripgrep: 'rg', 'libkrb5-dev': 'krb5-config', postgresql: '/usr/lib/postgresql/15/bin/pg_ctl', chromium: '/usr/bin/chromium' };
  const run = (argv: string[]): string | undefined => {
    ran.push(argv.join(' '));
    const install = argv.indexOf('install');
    if (install >= 0) for (const name of argv.slice(install + 1).filter((arg) => !arg.startsWith('-'))) have.add(provides[name] ?? name);
    return undefined;
  };
  const lines: string[] = [];
  return { probe, run, ran, lines, log: (line: string) => lines.push(line) };
}

const BUILD_TOOLS = ['make', 'g++', 'python3', 'apt-get'];
const ROOT: Host = { root: true, aptGet: true, sudoWithoutPassword: false };
const SUDO: Host = { root: false, aptGet: true, sudoWithoutPassword: true };
const NEITHER: Host = { root: false, aptGet: true, sudoWithoutPassword: false };
const NO_APT: Host = { root: true, aptGet: false, sudoWithoutPassword: false };

describe('Debian packages for the demo, CI and the e2e host', () => {
  test('as root, the missing packages are installed with apt-get, saying what and why', () => {
    const m = machine(BUILD_TOOLS);
    assert.equal(ensurePackages(['host'], { ...m, host: ROOT }), undefined);
    assert.deepEqual(m.ran, ['apt-get update -qq', 'env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ripgrep libkrb5-dev']);
    assert.match(m.lines[0] ?? '', /^Installing Debian packages: ripgrep \(code-server's VS Code searches with rg.*\); libkrb5-dev \(Kerberos headers/);
  });

  test('with sudo and no password, the same through sudo -n', () => {
    const m = machine(BUILD_TOOLS);
    assert.equal(ensurePackages(['host', 'live'], { ...m, host: SUDO }), undefined);
    assert.deepEqual(m.ran, ['sudo -n apt-get update -qq', 'sudo -n env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql ripgrep libkrb5-dev']);
  });

  test('neither root nor sudo: nothing is run, and the message is the one command to run', () => {
    const m = machine(BUILD_TOOLS);
    assert.equal(ensurePackages(['host'], { ...m, host: NEITHER }), 'missing: ripgrep, libkrb5-dev. Run: sudo apt-get update && sudo apt-get install -y ripgrep libkrb5-dev');
    assert.deepEqual(m.ran, []);
  });

  test('no apt-get: nothing is run, and the message names the packages', () => {
    const m = machine(['make', 'g++', 'python3']);
    assert.equal(ensurePackages(['e2e'], { ...m, host: NO_APT }), "missing: chromium, and apt-get is not here: install them with this system's package manager.");
    assert.deepEqual(m.ran, []);
  });

  test('everything present: nothing is run or said, whoever runs it', () => {
    const m = machine([...BUILD_TOOLS, 'rg', 'krb5-config'], ['/usr/lib/postgresql/15/bin/pg_ctl', '/usr/bin/chromium']);
    for (const host of [ROOT, SUDO, NEITHER, NO_APT]) assert.equal(ensurePackages(['host', 'live', 'contract', 'e2e'], { ...m, host }), undefined);
    assert.deepEqual(m.ran, []);
    assert.deepEqual(m.lines, []);
  });

  test('only the purposes asked for: the demo without --live needs no PostgreSQL and no Chromium', () => {
    const m = machine([...BUILD_TOOLS, 'rg', 'krb5-config']);
    assert.equal(ensurePackages(['host'], { ...m, host: NEITHER }), undefined);
  });

  test('a failing apt-get, or a package still missing afterwards, is said with its name', () => {
    const m = machine(BUILD_TOOLS);
    const failing = (argv: string[]) => (argv.includes('install') ? `${argv.join(' ')} exited with 100` : undefined);
    assert.match(ensurePackages(['host'], { ...m, run: failing, host: ROOT }) ?? '', /^could not install ripgrep, libkrb5-dev: .*apt-get install .* exited with 100$/);
    const noop = () => undefined;
    assert.equal(ensurePackages(['host'], { ...m, run: noop, host: ROOT }), 'still missing after apt-get install: ripgrep, libkrb5-dev');
  });
});
