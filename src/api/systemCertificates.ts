/**
 * The certificate authorities the operating system trusts, for `http.systemCertificates` (VS Code adds them for
 * `https` and `fetch`, not for a bundled undici): the store of macOS or Windows (certificateStores.ts), the bundle
 * files elsewhere (certificateBundles.ts). Cached; a failure is `problem` (why nothing was added), never an exception.
 */
import { bundleCertificates, clearBundleCache, LINUX_BUNDLES } from './certificateBundles';
import { clearStoreCache, storeCertificates, type FoundCertificates, type StoreOptions } from './certificateStores';

interface SystemCertificates extends FoundCertificates {
  /** Time this call took, in ms (a cache hit costs the stat calls only). */
  ms: number;
  cached: boolean;
}

interface SystemCertificateOptions extends StoreOptions {
  platform?: NodeJS.Platform;
  /** Bundle files tried when neither SSL_CERT_FILE nor SSL_CERT_DIR is set (tests point this elsewhere). */
  bundles?: readonly string[];
}

export async function loadSystemCertificates(options: SystemCertificateOptions = {}): Promise<SystemCertificates> {
  const started = performance.now();
  const platform = options.platform ?? process.platform;
  const { found, cached } =
    platform === 'darwin' || platform === 'win32'
      ? await storeCertificates(platform, options)
      : await bundleCertificates(options.env ?? {}, options.bundles ?? LINUX_BUNDLES);
  return { ...found, ms: performance.now() - started, cached };
}

/** Forgets what was read (tests). */
export function clearSystemCertificateCache(): void {
  clearStoreCache();
  clearBundleCache();
}
