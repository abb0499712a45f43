/**
 * The certificate store of macOS or Windows: Node's own reader (`tls.getCACertificates('system')`, Node 22.15+) when
 * the editor's Node has it and it finds any; otherwise, without native modules, as @vscode/proxy-agent reads it:
 * `security find-certificate` for the macOS keychains, Windows PowerShell printing each root certificate's DER.
 */
import { X509Certificate } from 'node:crypto';
import * as path from 'node:path';
import * as tls from 'node:tls';
import { pushAll } from '../base/arrays';
import { reasonOf, runCommand, type CommandRunner } from './commandRunner';
import { pemBlocks, uniquePems } from './pem';

/** Certificates found, without duplicates, where they came from, and why none were found (undefined on success). */
export interface FoundCertificates {
  certificates: string[];
  sources: string[];
  problem?: string;
}

export interface StoreOptions {
  /** Where `SystemRoot` (Windows) and the SSL_CERT_* variables (Linux) are read (the extension passes process.env). */
  env?: Record<string, string | undefined>;
  /** Runs the macOS / Windows reader commands (default: runCommand; tests pass a fake). */
  run?: CommandRunner;
  /** Node's reader of the store (default: `tls.getCACertificates` where it exists; `null`: none, for tests). */
  nodeReader?: ((type: 'system') => string[]) | null;
  /** Bounds of each child process (defaults STORE_TIMEOUT_MS, STORE_MAX_BYTES). */
  timeoutMs?: number;
  maxBytes?: number;
}

/** The keychains macOS's store is read from: the system roots, then the admin-installed CAs. */
export const MACOS_KEYCHAINS = ['/System/Library/Keychains/SystemRootCertificates.keychain', '/Library/Keychains/System.keychain'];
export const MACOS_SECURITY = '/usr/bin/security';
/** The Windows stores read (`…\CA` holds intermediates, which servers send themselves). */
export const WINDOWS_STORES = ['Cert:\\LocalMachine\\Root', 'Cert:\\CurrentUser\\Root'];
/** Bounds of one child process: a keychain or store prints a few hundred KB. */
const STORE_TIMEOUT_MS = 5_000;
const STORE_MAX_BYTES = 8 * 1024 * 1024;
/** A line the PowerShell script prints before a store's certificates. */
const STORE_MARK = '#store ';
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** macOS / Windows: Node's reader where it has one and finds certificates, else the platform's command. */
/** The result per platform, for the process: the promise, so that concurrent connections start one reader. */
const storeCache = new Map<string, Promise<FoundCertificates>>();

/** The store's certificates (read once per platform); a failure is `problem`, never an exception. */
export async function storeCertificates(
  platform: 'darwin' | 'win32',
  options: StoreOptions,
): Promise<{ found: FoundCertificates; cached: boolean }> {
  const pending = storeCache.get(platform);
  if (pending) return { found: await pending, cached: true };
  const loading = readStore(platform, options).catch((error: unknown): FoundCertificates => ({ certificates: [], sources: [], problem: reasonOf(error) }));
  storeCache.set(platform, loading);
  return { found: await loading, cached: false };
}

/** Forgets what was read (tests). */
export function clearStoreCache(): void {
  storeCache.clear();
}

/** Node's reader where it has one and finds certificates, else the platform's command. */
async function readStore(platform: 'darwin' | 'win32', options: StoreOptions): Promise<FoundCertificates> {
  const nodeReader = options.nodeReader === undefined ? (tls as { getCACertificates?: (type: 'system') => string[] }).getCACertificates : options.nodeReader;
  let nodeProblem: string | undefined;
  if (nodeReader) {
    try {
      const certificates = uniquePems(nodeReader('system'));
      if (certificates.length) return { certificates, sources: ['node:tls system store'] };
    } catch (error) {
      nodeProblem = `tls.getCACertificates: ${reasonOf(error)}`;
    }
  }
  const run = options.run ?? runCommand;
  const limits = { timeoutMs: options.timeoutMs ?? STORE_TIMEOUT_MS, maxBytes: options.maxBytes ?? STORE_MAX_BYTES };
  const result = platform === 'darwin' ? await readKeychains(run, limits) : await readWindowsStores(run, limits, options.env ?? {});
  if (result.problem && nodeProblem) result.problem = `${nodeProblem}; ${result.problem}`;
  return result;
}

async function readKeychains(run: CommandRunner, limits: { timeoutMs: number; maxBytes: number }): Promise<FoundCertificates> {
  const pems: string[] = [];
  const sources: string[] = [];
  const failures: string[] = [];
  for (const keychain of MACOS_KEYCHAINS) {
    try {
      const found = pemBlocks(await run(MACOS_SECURITY, ['find-certificate', '-a', '-p', keychain], limits));
      pushAll(pems, found);
      if (found.length) sources.push(keychain);
    } catch (error) {
      failures.push(`${keychain}: ${reasonOf(error)}`);
    }
  }
  const certificates = uniquePems(pems);
  if (certificates.length) return { certificates, sources };
  return { certificates: [], sources: [], problem: failures.length ? `security find-certificate failed (${failures.join('; ')})` : 'no certificate in the macOS keychains' };
}

async function readWindowsStores(run: CommandRunner, limits: { timeoutMs: number; maxBytes: number }, env: Record<string, string | undefined>): Promise<FoundCertificates> {
  const stores = WINDOWS_STORES.map((store) => `'${store}'`).join(',');
  // Errors (a store that cannot be opened) are skipped; each store is announced by a marker line.
  const script = [
    "$ErrorActionPreference = 'SilentlyContinue'",
    `foreach ($store in @(${stores})) { '${STORE_MARK}' + $store; Get-ChildItem -Path $store | ForEach-Object { [Convert]::ToBase64String($_.RawData) } }`,
  ].join('; ');
  let output: string;
  try {
    output = await run(windowsPowerShell(env), ['-NoLogo', '-NoProfile', '-NonInteractive', '-Command', script], limits);
  } catch (error) {
    return { certificates: [], sources: [], problem: `powershell.exe failed (${reasonOf(error)})` };
  }
  const { pems, sources } = parseWindowsOutput(output);
  const certificates = uniquePems(pems);
  if (certificates.length) return { certificates, sources };
  return { certificates: [], sources: [], problem: 'no certificate in the Windows certificate store' };
}

/** The PowerShell output: marker lines, then one base64 DER certificate a line; anything else is skipped. */
function parseWindowsOutput(output: string): { pems: string[]; sources: string[] } {
  const pems: string[] = [];
  const sources: string[] = [];
  let store: string | undefined;
  for (const raw of output.split(/\r?\n/)) {
    const line = raw.trim();
    if (line.startsWith(STORE_MARK)) {
      store = line.slice(STORE_MARK.length).trim();
      continue;
    }
    if (!line || line.length % 4 !== 0 || !BASE64.test(line)) continue;
    const pem = toPem(line);
    if (!pem) continue;
    pems.push(pem);
    if (store && !sources.includes(store)) sources.push(store);
  }
  return { pems, sources };
}

/** A base64 DER certificate as a PEM block (64-character lines), or undefined when it is not a certificate. */
export function toPem(base64: string): string | undefined {
  const body = base64.match(/.{1,64}/g)?.join('\n') ?? '';
  const pem = `-----BEGIN CERTIFICATE-----\n${body}\n-----END CERTIFICATE-----`;
  try {
    new X509Certificate(pem);
    return pem;
  } catch {
    return undefined;
  }
}

/** Windows PowerShell by its full path where `SystemRoot` is known (not whatever `powershell.exe` PATH finds first). */
function windowsPowerShell(env: Record<string, string | undefined>): string {
  const root = env.SystemRoot ?? env.SYSTEMROOT;
  return root ? path.win32.join(root, 'System32', 'WindowsPowerShell', 'v1.0', 'powershell.exe') : 'powershell.exe';
}
