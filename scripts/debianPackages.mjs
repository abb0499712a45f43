#!/usr/bin/env node
// The Debian packages the project needs beyond Node and npm, written once for CI (.ci/run), the demo and the e2e
// host install: which are missing, and installing them when this process may (root, or sudo without a password,
// with apt-get present), saying what and why; otherwise one command to run.
//
//   node scripts/debianPackages.mjs host live e2e contract     installs what those purposes need (CI: all of them)
//
// Purposes: host (code-server's install builds VS Code's native modules), live (a real Unleash: PostgreSQL),
// contract (the same), e2e (Chromium drives VS Code).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { pathToFileURL } from 'node:url';

/** Each package: what it is for, and how to tell it is there without asking dpkg (a binary or a header). */
export const PACKAGES = [
  {
    name: 'postgresql',
    why: 'PostgreSQL 15 for the real Unleash servers',
    purposes: ['contract', 'live'],
    present: (probe) => probe.file('/usr/lib/postgresql/15/bin/pg_ctl'),
  },
  {
    name: 'chromium',
    why: 'Chromium drives VS Code in the end-to-end tests',
    purposes: ['e2e'],
    present: (probe) => probe.file(process.env.E2E_CHROMIUM || '/usr/bin/chromium'),
  },
  {
    name: 'ripgrep',
    why: "code-server's VS Code searches with rg (its own install would download one)",
    purposes: ['host'],
    present: (probe) => probe.command('rg'),
  },
  {
    name: 'libkrb5-dev',
    why: "Kerberos headers, to build VS Code's kerberos module",
    purposes: ['host'],
    present: (probe) => probe.file('/usr/include/krb5.h') || probe.file('/usr/include/gssapi/gssapi.h') || probe.command('krb5-config'),
  },
  { name: 'make', why: 'builds native modules', purposes: ['host'], present: (probe) => probe.command('make') },
  { name: 'g++', why: 'builds native modules', purposes: ['host'], present: (probe) => probe.command('g++') },
  { name: 'python3', why: "node-gyp's build scripts", purposes: ['host'], present: (probe) => probe.command('python3') },
];

/** The packages the purposes need that the probe does not find, in the order of PACKAGES. */
export function missingPackages(purposes, probe) {
  return PACKAGES.filter((pkg) => pkg.purposes.some((purpose) => purposes.includes(purpose)) && !pkg.present(probe));
}

/**
 * What to do about the missing packages: nothing; install them (the commands to run, with sudo when not root); or
 * stop with the one command a person must run.
 */
export function installPlan(missing, host) {
  if (!missing.length) return { action: 'none' };
  const names = missing.map((pkg) => pkg.name);
  const command = `apt-get install -y ${names.join(' ')}`;
  if (!host.aptGet) {
    return { action: 'stop', message: `missing: ${names.join(', ')}, and apt-get is not here: install them with this system's package manager.` };
  }
  const prefix = host.root ? [] : host.sudoWithoutPassword ? ['sudo', '-n'] : undefined;
  if (!prefix) {
    return { action: 'stop', message: `missing: ${names.join(', ')}. Run: sudo apt-get update && sudo ${command}` };
  }
  return {
    action: 'install',
    steps: [
      [...prefix, 'apt-get', 'update', '-qq'],
      [...prefix, 'env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', 'install', '-y', '-qq', ...names],
    ],
  };
}

/** This machine, as the plan needs it. */
export const systemProbe = {
  command: (name) => spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0,
  file: (file) => fs.existsSync(file),
};

export function systemHost(probe = systemProbe) {
  return {
    root: typeof process.getuid === 'function' && process.getuid() === 0,
    aptGet: probe.command('apt-get'),
    sudoWithoutPassword: probe.command('sudo') && spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore', timeout: 10_000 }).status === 0,
  };
}

/** How long one apt-get step may take before it is a failure with its name. */
const STEP_TIMEOUT_MS = 20 * 60_000;

/** Runs an apt-get step with its output to `output` ('inherit', or a file descriptor: the demo's log). */
export function stepRunner(output = 'inherit') {
  return (argv) => {
    const result = spawnSync(argv[0], argv.slice(1), { stdio: ['ignore', output, output], timeout: STEP_TIMEOUT_MS });
    if (result.error) return `${argv.join(' ')}: ${result.error.message}`;
    return result.status === 0 ? undefined : `${argv.join(' ')} exited with ${result.status ?? result.signal}`;
  };
}

/**
 * Installs what the purposes need when it may; answers undefined when everything is there afterwards, else the
 * message to stop with. `probe`, `host`, `run` and `log` are this machine's unless a test injects its own.
 */
export function ensurePackages(purposes, { probe = systemProbe, host, run = stepRunner(), log = (line) => console.log(line) } = {}) {
  const missing = missingPackages(purposes, probe);
  const plan = installPlan(missing, host ?? systemHost(probe));
  if (plan.action === 'none') return undefined;
  if (plan.action === 'stop') return plan.message;
  log(`Installing Debian packages: ${missing.map((pkg) => `${pkg.name} (${pkg.why})`).join('; ')}`);
  for (const step of plan.steps) {
    log(`$ ${step.join(' ')}`);
    const failure = run(step);
    if (failure) return `could not install ${missing.map((pkg) => pkg.name).join(', ')}: ${failure}`;
  }
  const still = missingPackages(purposes, probe);
  return still.length ? `still missing after apt-get install: ${still.map((pkg) => pkg.name).join(', ')}` : undefined;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const purposes = process.argv.slice(2);
  const problem = ensurePackages(purposes.length ? purposes : ['host', 'live', 'contract', 'e2e']);
  if (problem) {
    console.error(`Debian packages: ${problem}`);
    process.exit(1);
  }
}
