/**
 * The certificate authorities the operating system trusts, for `http.systemCertificates` (what VS Code's own
 * extension host adds for `https` and `fetch`, but not for a bundled undici; see dispatcher.ts).
 *
 * - Linux (and other Unix): the system bundle, as OpenSSL finds it: `SSL_CERT_FILE` and the hashed files of the
 *   folders in `SSL_CERT_DIR` when set, otherwise the first of the usual bundle files (Debian/Ubuntu/Alpine, Fedora/RHEL,
 *   openSUSE). Files are read with safeRead (regular files only, bounded).
 * - macOS and Windows: Node's own reader of the keychain / certificate store (`tls.getCACertificates('system')`, Node
 *   22.15 and later) when the editor's Node has it. VS Code 1.100 runs Node 20, which has none: there the store is not
 *   read (Node's bundled roots and `unleash.network.caCertificates` still apply), and the result says so.
 *
 * Loading is cached per source (paths with their size and modification time), so a connection pays a few stat
 * calls once the store was read. Imports nothing from 'vscode'.
 */
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import * as tls from 'node:tls';
import { readRegularFile, UnsafeFileError } from '../base/safeRead';

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
const PEM = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g;

export interface SystemCertificates {
  /** PEM certificates, without duplicates. */
  certificates: string[];
  /** Where they came from: files, folders, or `node:tls system store`; empty when nothing was found or read. */
  sources: string[];
  /** Why nothing could be read (a platform without a reader, a file that is too large…); undefined on success. */
  problem?: string;
  /** Time this call took, in ms (a cache hit costs the stat calls only). */
  ms: number;
  cached: boolean;
}

export interface SystemCertificateOptions {
  /** Where `SSL_CERT_FILE` / `SSL_CERT_DIR` are read (the extension passes process.env). */
  env?: Record<string, string | undefined>;
  platform?: NodeJS.Platform;
  /** Bundle files tried when neither variable is set (tests point this elsewhere). */
  bundles?: readonly string[];
}

const cache = new Map<string, Omit<SystemCertificates, 'ms' | 'cached'>>();

export async function loadSystemCertificates(options: SystemCertificateOptions = {}): Promise<SystemCertificates> {
  const started = performance.now();
  const finish = (result: Omit<SystemCertificates, 'ms' | 'cached'>, cached: boolean): SystemCertificates => ({
    ...result,
    ms: performance.now() - started,
    cached,
  });
  const platform = options.platform ?? process.platform;
  if (platform === 'darwin' || platform === 'win32') {
    const reader = (tls as { getCACertificates?: (type: 'system') => string[] }).getCACertificates;
    if (!reader) {
      return finish({ certificates: [], sources: [], problem: `Node ${process.versions.node} cannot read the ${platform === 'darwin' ? 'macOS keychain' : 'Windows certificate store'}` }, false);
    }
    const hit = cache.get('node:system');
    if (hit) return finish(hit, true);
    const result = { certificates: unique(reader('system')), sources: ['node:tls system store'] };
    cache.set('node:system', result);
    return finish(result, false);
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
  sources.push(...new Set(files.filter((file) => file.inDir).map((file) => path.dirname(file.path))));
  const certificates = unique(texts.flatMap((text) => text.match(PEM) ?? []));
  const result = { certificates, sources: certificates.length ? sources : [], problem: certificates.length ? undefined : problem ?? 'no system certificate bundle found' };
  cache.set(key, result);
  return finish(result, false);
}

/** Forgets what was read (tests). */
export function clearSystemCertificateCache(): void {
  cache.clear();
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

function unique(pems: string[]): string[] {
  const seen = new Set<string>();
  const result: string[] = [];
  for (const pem of pems) {
    const key = pem.replace(/\s+/g, '');
    if (seen.has(key)) continue;
    seen.add(key);
    result.push(pem.trim());
  }
  return result;
}
