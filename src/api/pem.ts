/** PEM certificate text: the blocks in a text, and one copy of each certificate. Imports nothing from 'vscode'. */

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
