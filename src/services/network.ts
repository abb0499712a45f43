/**
 * What a connection's network settings mean before any request: the PEM files of extra CAs (read safely), and the
 * warnings a user must see.
 */
import * as l10n from '@vscode/l10n';
import { ConfigError } from '../api/errors';
import { settingId, Settings } from '../base/constants';
import { plainHttpWarning } from '../model/settings/settingRules';
import { readRegularFile, UnsafeFileError } from '../base/safeRead';

/** Warnings for a connection about to be used: certificate checks off, a token over plain http:// to another host. */
export function connectionWarnings(baseUrl: URL, settings: { network: { rejectUnauthorized: boolean } }): string[] {
  const warnings: string[] = [];
  if (!settings.network.rejectUnauthorized && baseUrl.protocol === 'https:') {
    warnings.push(
      l10n.t(
        'Certificate checks are off for {0} ({1}). Anyone between you and the server can read your token.',
        baseUrl.host,
        settingId(Settings.rejectUnauthorized),
      ),
    );
  }
  const plain = plainHttpWarning(baseUrl);
  if (plain) warnings.push(plain);
  return warnings;
}

/** Largest CA file read: a bundle of a few hundred certificates fits; `/dev/zero` does not. */
export const MAX_CA_FILE_BYTES = 1024 * 1024;

/**
 * Reads the PEM files of `unleash.network.caCertificates`: asynchronously, regular files only (a link to one is
 * followed, so `/etc/ssl/certs/*.pem` work), at most MAX_CA_FILE_BYTES each.
 */
export async function readCaFiles(paths: string[]): Promise<string[]> {
  const texts: string[] = [];
  for (const path of paths) {
    const fail = (why: string): never => {
      throw new ConfigError(settingId(Settings.caCertificates), l10n.t('lists {0}, which {1}. Give the path of a PEM file.', path, why));
    };
    try {
      const bytes = await readRegularFile(path, { maxBytes: MAX_CA_FILE_BYTES, followLinks: true });
      if (!bytes) fail(l10n.t('does not exist'));
      texts.push((bytes as Buffer).toString('utf8'));
    } catch (error) {
      if (error instanceof ConfigError) throw error;
      if (error instanceof UnsafeFileError) {
        fail(error.code === 'EFBIG' ? l10n.t('is larger than {0} KB', MAX_CA_FILE_BYTES / 1024) : l10n.t('is not a regular file'));
      }
      fail(l10n.t('cannot be read ({0})', (error as NodeJS.ErrnoException).code ?? 'error'));
    }
  }
  return texts;
}
