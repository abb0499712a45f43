/**
 * The certificate authorities the operating system trusts, for `http.systemCertificates` (what VS Code's own
 * extension host adds for `https` and `fetch`, but not for a bundled undici; see dispatcher.ts).
 *
 * - Linux (and other Unix): the system bundle, as OpenSSL finds it: `SSL_CERT_FILE` and the hashed files of the
 *   folders in `SSL_CERT_DIR` when set, otherwise the first of the usual bundle files (Debian/Ubuntu/Alpine, Fedora/RHEL,
 *   openSUSE). Files are read with safeRead (regular files only, bounded).
 * - macOS and Windows: Node's own reader of the keychain / certificate store (`tls.getCACertificates('system')`, Node
 *   22.15 and later) when the editor's Node has it and it finds any. Otherwise (VS Code 1.100 runs Node 20) the store
 *   is read the way VS Code's @vscode/proxy-agent reads it, without native modules:
 *   - macOS: `/usr/bin/security find-certificate -a -p` for the system roots
 *     (`/System/Library/Keychains/SystemRootCertificates.keychain`) and the admin-installed CAs
 *     (`/Library/Keychains/System.keychain`, where an internal CA goes); the PEM blocks it prints are kept.
 *   - Windows: Windows PowerShell lists `Cert:\LocalMachine\Root` and `Cert:\CurrentUser\Root` and prints each
 *     certificate's DER as base64, which becomes a PEM block (checked with X509Certificate).
 *   Each child process is started with execFile (no shell), stdin closed, a timeout (it is killed past it) and an
 *   output bound; a failure becomes `problem` (why nothing was added), never an exception. The `run` option replaces
 *   the process runner (tests).
 *
 * Linux loading is cached per source (paths with their size and modification time), so a connection pays a few stat
 * calls once the store was read; the macOS / Windows result is cached per platform for the process (a new window
 * reads it again). Imports nothing from 'vscode'.
 */
import { execFile } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import * as tls from 'node:tls';
import { pushAll } from '../base/arrays';
import { readRegularFile, UnsafeFileError } from '../base/safeRead';
import { pemBlocks, uniquePems } from './pem';

/** Usual bundle files, first found wins (the list VS Code's loader uses). */
export const LINUX_BUNDLES = [
  '/etc/ssl/certs/ca-certificates.crt',
  '/etc/pki/tls/certs/ca-bundle.crt',
  '/etc/ssl/certs/ca-bundle.crt',
  '/etc/ssl/ca-bundle.pem',
  '/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem',
];
/** Largest bundle read (Debian's is about 220 KB). */
export const MAX_BUNDLE_BYTES = 4 * 1024 * 1024;
/** Largest single certificate file in `SSL_CERT_DIR`, and how many files are read there at most. */
const MAX_DIR_FILE_BYTES = 64 * 1024;
const MAX_DIR_FILES = 2_000;
/** OpenSSL's names in a hashed folder: `5ed36f99.0`. */
const HASHED = /^[0-9a-f]{8}\.\d+$/;

/** The keychains macOS's store is read from: the system roots, then the admin-installed CAs. */
export const MACOS_KEYCHAINS = ['/System/Library/Keychains/SystemRootCertificates.keychain', '/Library/Keychains/System.keychain'];
export const MACOS_SECURITY = '/usr/bin/security';
/** The Windows stores read (`…\CA` holds intermediates, which servers send themselves). */
export const WINDOWS_STORES = ['Cert:\\LocalMachine\\Root', 'Cert:\\CurrentUser\\Root'];
/** Bounds of one child process: a keychain or store prints a few hundred KB. */
export const STORE_TIMEOUT_MS = 5_000;
export const STORE_MAX_BYTES = 8 * 1024 * 1024;
/** A line the PowerShell script prints before a store's certificates. */
const STORE_MARK = '#store ';
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** Runs `file` with `args` (no shell) and resolves to its stdout; rejects with a readable reason. */
export type CommandRunner = (file: string, args: readonly string[], limits: { timeoutMs: number; maxBytes: number }) => Promise<string>;

export interface SystemCertificates {
  /** PEM certificates, without duplicates. */
  certificates: string[];
  /** Where they came from: files, folders, keychains, stores, or `node:tls system store`; empty when nothing was found or read. */
  sources: string[];
  /** Why nothing could be read (a command that failed, a file that is too large…); undefined on success. */
  problem?: string;
  /** Time this call took, in ms (a cache hit costs the stat calls only). */
  ms: number;
  cached: boolean;
}

export interface SystemCertificateOptions {
  /** Where `SSL_CERT_FILE` / `SSL_CERT_DIR` (and on Windows `SystemRoot`) are read (the extension passes process.env). */
  env?: Record<string, string | undefined>;
  platform?: NodeJS.Platform;
  /** Bundle files tried when neither variable is set (tests point this elsewhere). */
  bundles?: readonly string[];
  /** Runs the macOS / Windows reader commands (default: runCommand; tests pass a fake). */
  run?: CommandRunner;
  /** Node's reader of the store (default: `tls.getCACertificates` where it exists; `null`: none, for tests). */
  nodeReader?: ((type: 'system') => string[]) | null;
  /** Bounds of each child process (defaults STORE_TIMEOUT_MS, STORE_MAX_BYTES). */
  timeoutMs?: number;
  maxBytes?: number;
}

type Loaded = Omit<SystemCertificates, 'ms' | 'cached'>;
const cache = new Map<string, Loaded>();
/** The macOS / Windows result per platform: the promise, so that concurrent connections start one reader. */
const storeCache = new Map<string, Promise<Loaded>>();

export async function loadSystemCertificates(options: SystemCertificateOptions = {}): Promise<SystemCertificates> {
  const started = performance.now();
  const finish = (result: Loaded, cached: boolean): SystemCertificates => ({
    ...result,
    ms: performance.now() - started,
    cached,
  });
  const platform = options.platform ?? process.platform;
  if (platform === 'darwin' || platform === 'win32') {
    const pending = storeCache.get(platform);
    if (pending) return finish(await pending, true);
    const loading = readStore(platform, options).catch((error: unknown): Loaded => ({ certificates: [], sources: [], problem: reasonOf(error) }));
    storeCache.set(platform, loading);
    return finish(await loading, false);
  }
  const env = options.env ?? {};
  const files = await candidateFiles(env, options.bundles ?? LINUX_BUNDLES);
  const key = JSON.stringify(files);
  const hit = cache.get(key);
  if (hit) return finish(hit, true);
  const texts: string[] = [];
  const sources: string[] = [];
  let problem: string | undefined;
  for (const file of files) {
    try {
      const bytes = await readRegularFile(file.path, { maxBytes: file.maxBytes, followLinks: true });
      if (!bytes) continue;
      texts.push(bytes.toString('utf8'));
      if (!file.inDir) sources.push(file.path);
    } catch (error) {
      problem ??= error instanceof UnsafeFileError ? error.message : `${file.path} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`;
    }
  }
  pushAll(sources, new Set(files.filter((file) => file.inDir).map((file) => path.dirname(file.path))));
  const certificates = uniquePems(texts.flatMap(pemBlocks));
  const result = { certificates, sources: certificates.length ? sources : [], problem: certificates.length ? undefined : problem ?? 'no system certificate bundle found' };
  cache.set(key, result);
  return finish(result, false);
}

/** macOS / Windows: Node's reader where it has one and finds certificates, else the platform's command. */
async function readStore(platform: 'darwin' | 'win32', options: SystemCertificateOptions): Promise<Loaded> {
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

async function readKeychains(run: CommandRunner, limits: { timeoutMs: number; maxBytes: number }): Promise<Loaded> {
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

async function readWindowsStores(run: CommandRunner, limits: { timeoutMs: number; maxBytes: number }, env: Record<string, string | undefined>): Promise<Loaded> {
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
export function parseWindowsOutput(output: string): { pems: string[]; sources: string[] } {
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

/**
 * The default runner: execFile without a shell, stdin closed, killed (SIGKILL) past `timeoutMs` or once stdout
 * exceeds `maxBytes`. Rejects with an Error whose message says why (not found, timed out, too much output, exit code).
 */
export const runCommand: CommandRunner = (file, args, { timeoutMs, maxBytes }) =>
  new Promise((resolve, reject) => {
    const name = path.basename(file);
    let child: ReturnType<typeof execFile>;
    try {
      child = execFile(
        file,
        [...args],
        { encoding: 'utf8', shell: false, windowsHide: true, timeout: timeoutMs, maxBuffer: maxBytes, killSignal: 'SIGKILL' },
        (error, stdout, stderr) => {
          if (!error) return resolve(stdout);
          const failure = error as NodeJS.ErrnoException & { killed?: boolean; signal?: NodeJS.Signals | null; code?: string | number | null };
          if (failure.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER') return reject(new Error(`${name} printed more than ${maxBytes} bytes`));
          if (failure.code === 'ENOENT') return reject(new Error(`${file} not found`));
          if (failure.killed) return reject(new Error(`${name} did not finish within ${timeoutMs} ms (killed)`));
          if (failure.signal) return reject(new Error(`${name} was ended by ${failure.signal}`));
          const detail = String(stderr).trim().split(/\r?\n/)[0]?.slice(0, 200);
          if (typeof failure.code === 'number') return reject(new Error(`${name} exited with code ${failure.code}${detail ? `: ${detail}` : ''}`));
          reject(new Error(`${name}: ${failure.code ?? failure.message}`));
        },
      );
    } catch (error) {
      reject(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    child.stdin?.on('error', () => undefined);
    child.stdin?.end();
  });

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Forgets what was read (tests). */
export function clearSystemCertificateCache(): void {
  cache.clear();
  storeCache.clear();
}

interface Candidate {
  path: string;
  maxBytes: number;
  inDir: boolean;
  /** Size and modification time: part of the cache key, so a changed store is read again. */
  stamp: string;
}

async function candidateFiles(env: Record<string, string | undefined>, bundles: readonly string[]): Promise<Candidate[]> {
  const certFile = env.SSL_CERT_FILE?.trim();
  const certDirs = (env.SSL_CERT_DIR ?? '').split(path.delimiter).map((dir) => dir.trim()).filter(Boolean);
  const found: Candidate[] = [];
  if (!certFile && !certDirs.length) {
    for (const bundle of bundles) {
      const stamp = await stampOf(bundle);
      if (stamp) return [{ path: bundle, maxBytes: MAX_BUNDLE_BYTES, inDir: false, stamp }];
    }
    return [];
  }
  if (certFile) {
    const stamp = await stampOf(certFile);
    if (stamp) found.push({ path: certFile, maxBytes: MAX_BUNDLE_BYTES, inDir: false, stamp });
  }
  for (const dir of certDirs) {
    const dirStamp = await stampOf(dir);
    if (!dirStamp) continue;
    let names: string[] = [];
    try {
      names = (await fsp.readdir(dir)).filter((name) => HASHED.test(name)).sort().slice(0, MAX_DIR_FILES);
    } catch {
      continue;
    }
    // The folder's own mtime changes when a certificate is added or removed: one stamp for all its files.
    for (const name of names) found.push({ path: path.join(dir, name), maxBytes: MAX_DIR_FILE_BYTES, inDir: true, stamp: dirStamp });
  }
  return found;
}

async function stampOf(file: string): Promise<string | undefined> {
  try {
    const entry = await fsp.stat(file);
    return `${entry.size}:${entry.mtimeMs}`;
  } catch {
    return undefined;
  }
}

