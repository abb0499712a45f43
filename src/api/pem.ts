/** PEM certificate text: the blocks in a text, and one copy of each certificate. */
import * as l10n from '@vscode/l10n';
import { ConfigError } from './errors';

/** The extension's setting for extra certificate authorities; named when one of its files is not PEM. */
const CA_CERTIFICATES_SETTING = 'unleash.network.caCertificates';

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g;

/** The certificate blocks of `text` (a bundle, a tool's output), in order; what lies between them is dropped. */
export function pemBlocks(text: string): string[] {
  return text.match(PEM_BLOCK) ?? [];
}

/** A certificate's identity for comparing: its base64 body without the armour lines and line breaks. */
export function pemKey(pem: string): string {
  return pem.replace(/-----[A-Z ]+-----|\s+/g, '');
}

/** Each certificate once (the first copy, trimmed), in order. */
export function uniquePems(pems: readonly string[]): string[] {
  const seen = new Set<string>();
  const result: string[] = [];
  for (const pem of pems) {
    const key = pemKey(pem);
    if (seen.has(key)) continue;
    seen.add(key);
    result.push(pem.trim());
  }
  return result;
}

/**
 * Refuses extra CA texts without a PEM certificate block: Node silently ignores them, which would leave the user with
 * the same TLS error and no clue. Says which setting holds a file that is not PEM (DER, a key, an empty file).
 */
export function requirePemCertificates(texts: readonly string[]): void {
  if (texts.some((pem) => !/-----BEGIN CERTIFICATE-----/.test(pem))) {
    throw new ConfigError(
      CA_CERTIFICATES_SETTING,
      l10n.t('lists a file that holds no PEM certificate (a "-----BEGIN CERTIFICATE-----" block). Give the CA certificate in PEM form.'),
    );
  }
}
