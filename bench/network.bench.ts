/**
 * What trusting the operating system's certificates costs (issue 17): reading the store (cold and cached, per
 * source), and the TLS setup of a connection with Node's roots plus the store, as `ca` per connection versus one
 * shared secure context (what dispatcher.ts does). Prints the figures the README quotes; asserts nothing.
 *
 *   npx tsx bench/network.bench.ts [--quick]
 */
import * as tls from 'node:tls';
import { clearSystemCertificateCache, loadSystemCertificates } from '../src/api/systemCertificates';

const quick = process.argv.includes('--quick');
const runs = quick ? 5 : 20;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

async function measureLoad(label: string, env: Record<string, string | undefined>): Promise<string[]> {
  const cold: number[] = [];
  const warm: number[] = [];
  let certificates: string[] = [];
  let sources: string[] = [];
  for (let i = 0; i < runs; i++) {
    clearSystemCertificateCache();
    const first = await loadSystemCertificates({ env });
    cold.push(first.ms);
    const again = await loadSystemCertificates({ env });
    warm.push(again.ms);
    certificates = first.certificates;
    sources = first.sources;
  }
  console.log(`${label}: ${certificates.length} certificates from ${sources.join(', ') || '(none)'}; cold ${median(cold).toFixed(2)} ms, cached ${median(warm).toFixed(3)} ms (median of ${runs})`);
  return certificates;
}

async function main(): Promise<void> {
  console.log(`Node ${process.version}, ${process.platform}; Node's bundled roots: ${tls.rootCertificates.length}`);
  const system = await measureLoad('default bundle (no SSL_CERT_* set)', {});
  if (process.env.SSL_CERT_FILE || process.env.SSL_CERT_DIR) {
    await measureLoad(`this environment (SSL_CERT_FILE=${process.env.SSL_CERT_FILE ?? ''} SSL_CERT_DIR=${process.env.SSL_CERT_DIR ?? ''})`, process.env);
  }
  if (process.env.SSL_CERT_DIR) await measureLoad(`SSL_CERT_DIR only (${process.env.SSL_CERT_DIR})`, { SSL_CERT_DIR: process.env.SSL_CERT_DIR });
  const ca = [...tls.rootCertificates, ...system];
  const contexts: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    tls.createSecureContext({ ca });
    contexts.push(performance.now() - started);
  }
  const plain: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    tls.createSecureContext({});
    plain.push(performance.now() - started);
  }
  console.log(`secure context with ${ca.length} CAs: ${median(contexts).toFixed(2)} ms; with Node's default roots: ${median(plain).toFixed(3)} ms`);
  console.log('→ a connection given `ca` pays the first figure on every TLS handshake; dispatcher.ts builds the context once per client.');
}

void main();
