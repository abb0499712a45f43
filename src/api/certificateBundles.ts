/**
 * The certificate bundle of Linux (and other Unix), as OpenSSL finds it: `SSL_CERT_FILE` and the hashed files of the
 * folders in `SSL_CERT_DIR` when set, otherwise the first of the usual bundle files; each read with safeRead (regular
 * files only, bounded). Each file's size and modification time make the cache key, so a changed store is read again.
 */
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { pushAll } from '../base/arrays';
import { readRegularFile, UnsafeFileError } from '../base/safeRead';
import type { FoundCertificates } from './certificateStores';
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

/** What each set of candidate files (with their stamps) held. */
const cache = new Map<string, FoundCertificates>();

/** The certificates of the bundle files that `env` names, or of the first of `bundles` found. */
export async function bundleCertificates(
  env: Record<string, string | undefined>,
  bundles: readonly string[],
): Promise<{ found: FoundCertificates; cached: boolean }> {
  const files = await candidateFiles(env, bundles);
  const key = JSON.stringify(files);
  const hit = cache.get(key);
  if (hit) return { found: hit, cached: true };
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
  const found = { certificates, sources: certificates.length ? sources : [], problem: certificates.length ? undefined : problem ?? 'no system certificate bundle found' };
  cache.set(key, found);
  return { found, cached: false };
}

/** Forgets what was read (tests). */
export function clearBundleCache(): void {
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
