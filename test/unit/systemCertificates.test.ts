/**
 * The operating system's certificates on macOS and Windows (systemCertificates.ts): Node's reader first, then
 * `security find-certificate` / PowerShell through an injected runner (so this runs in plain Node on Linux), failures
 * as `problem`, the per-platform cache, and the default runner's bounds on a real child process.
 */
import assert from 'node:assert/strict';
import * as tls from 'node:tls';
import { beforeEach, describe, it } from 'node:test';
import { clearSystemCertificateCache, loadSystemCertificates } from '../../src/api/systemCertificates';
import { MACOS_KEYCHAINS, MACOS_SECURITY, toPem, WINDOWS_STORES } from '../../src/api/certificateStores';
import { runCommand, type CommandRunner } from '../../src/api/commandRunner';

const pems = tls.rootCertificates.slice(0, 4);
const base64 = (pem: string): string => pem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
const squash = (pem: string): string => pem.replace(/\s+/g, '');

/** A runner that answers from a table keyed by the last argument, and records its calls. */
function fakeRunner(answers: Record<string, string | Error>): CommandRunner & { calls: Array<{ file: string; args: readonly string[]; limits: unknown }> } {
  const calls: Array<{ file: string; args: readonly string[]; limits: unknown }> = [];
  const run = async (file: string, args: readonly string[], limits: { timeoutMs: number; maxBytes: number }): Promise<string> => {
    calls.push({ file, args, limits });
    const answer = answers[args[args.length - 1] ?? ''] ?? answers['*'];
    if (answer instanceof Error) throw answer;
    if (answer === undefined) throw new Error(`unexpected ${file}`);
    return answer;
  };
  return Object.assign(run, { calls });
}

describe('system certificates on macOS and Windows', () => {
  beforeEach(() => clearSystemCertificateCache());

  it('macOS: reads both keychains with security find-certificate, keeps PEM blocks only, removes duplicates', async () => {
    const [a, b, c] = pems as [string, string, string];
    const run = fakeRunner({
      [MACOS_KEYCHAINS[0] as string]: `${a}\n${b}\n`,
      [MACOS_KEYCHAINS[1] as string]: `keychain: "/Library/Keychains/System.keychain"\nversion: 512\n${b}\nnoise\n${c}\n`,
    });
    const result = await loadSystemCertificates({ platform: 'darwin', run, nodeReader: null });
    assert.equal(result.problem, undefined);
    assert.deepEqual(result.certificates.map(squash), [a, b, c].map(squash));
    assert.deepEqual(result.sources, MACOS_KEYCHAINS);
    assert.deepEqual(
      run.calls.map((call) => [call.file, ...call.args]),
      MACOS_KEYCHAINS.map((keychain) => [MACOS_SECURITY, 'find-certificate', '-a', '-p', keychain]),
    );
    assert.deepEqual(run.calls[0]?.limits, { timeoutMs: 5_000, maxBytes: 8 * 1024 * 1024 });
    const again = await loadSystemCertificates({ platform: 'darwin', run, nodeReader: null });
    assert.deepEqual([again.cached, again.certificates.length, run.calls.length], [true, 3, 2]);
  });

  it('macOS: one keychain failing still yields the other; both failing is a problem naming each', async () => {
    const [a] = pems as [string];
    const partial = await loadSystemCertificates({
      platform: 'darwin',
      nodeReader: null,
      run: fakeRunner({ [MACOS_KEYCHAINS[0] as string]: a, [MACOS_KEYCHAINS[1] as string]: new Error('security exited with code 50') }),
    });
    assert.deepEqual([partial.certificates.length, partial.sources, partial.problem], [1, [MACOS_KEYCHAINS[0]], undefined]);
    clearSystemCertificateCache();
    const failed = await loadSystemCertificates({ platform: 'darwin', nodeReader: null, run: fakeRunner({ '*': new Error('security did not finish within 5000 ms (killed)') }) });
    assert.deepEqual([failed.certificates, failed.sources, failed.cached], [[], [], false]);
    assert.match(failed.problem ?? '', /^security find-certificate failed \(/);
    assert.match(failed.problem ?? '', /SystemRootCertificates\.keychain: security did not finish within 5000 ms \(killed\)/);
    assert.match(failed.problem ?? '', /System\.keychain: security did not finish/);
    clearSystemCertificateCache();
    const empty = await loadSystemCertificates({ platform: 'darwin', nodeReader: null, run: fakeRunner({ '*': 'nothing here\n' }) });
    assert.equal(empty.problem, 'no certificate in the macOS keychains');
  });

  it('Windows: base64 lines from PowerShell become PEM blocks of 64-character lines, per store, without duplicates', async () => {
    const [a, b, c] = pems as [string, string, string];
    const output = [
      `#store ${WINDOWS_STORES[0]}`,
      base64(a),
      base64(b),
      'WARNING: something',
      'QUJD', // valid base64, not a certificate
      `#store ${WINDOWS_STORES[1]}`,
      base64(b),
      `${base64(c)}\r`,
      '',
    ].join('\r\n');
    const run = fakeRunner({ '*': output });
    const result = await loadSystemCertificates({ platform: 'win32', run, nodeReader: null, env: { SystemRoot: 'C:\\Windows' } });
    assert.equal(result.problem, undefined);
    assert.deepEqual(result.certificates.map(squash), [a, b, c].map(squash));
    assert.deepEqual(result.sources, WINDOWS_STORES);
    for (const pem of result.certificates) {
      const lines = pem.split('\n');
      assert.equal(lines[0], '-----BEGIN CERTIFICATE-----');
      assert.equal(lines[lines.length - 1], '-----END CERTIFICATE-----');
      assert.ok(lines.slice(1, -1).every((line, i, body) => (i < body.length - 1 ? line.length === 64 : line.length <= 64)));
    }
    const call = run.calls[0];
    assert.equal(call?.file, 'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe');
    assert.deepEqual(call?.args.slice(0, 4), ['-NoLogo', '-NoProfile', '-NonInteractive', '-Command']);
    for (const store of WINDOWS_STORES) assert.ok(call?.args[4]?.includes(`'${store}'`));
    assert.match(call?.args[4] ?? '', /RawData/);
    assert.equal(toPem('QUJD'), undefined);
  });

  it('Windows: a runner that fails or times out becomes a problem, never an exception; PATH lookup without SystemRoot', async () => {
    const run = fakeRunner({ '*': new Error('powershell.exe did not finish within 5000 ms (killed)') });
    const failed = await loadSystemCertificates({ platform: 'win32', run, nodeReader: null, env: {} });
    assert.deepEqual([failed.certificates, failed.sources], [[], []]);
    assert.equal(failed.problem, 'powershell.exe failed (powershell.exe did not finish within 5000 ms (killed))');
    assert.equal(run.calls[0]?.file, 'powershell.exe');
    clearSystemCertificateCache();
    const thrown = await loadSystemCertificates({ platform: 'win32', nodeReader: null, run: () => { throw new Error('spawn EPERM'); } });
    assert.match(thrown.problem ?? '', /spawn EPERM/);
  });

  it('uses Node\'s reader first where it exists, and the commands when it has none, finds none or throws', async () => {
    const [a, b] = pems as [string, string];
    const run = fakeRunner({ '*': `${b}\n` });
    const viaNode = await loadSystemCertificates({ platform: 'darwin', run, nodeReader: () => [a, a] });
    assert.deepEqual([viaNode.certificates.length, viaNode.sources, run.calls.length], [1, ['node:tls system store'], 0]);
    clearSystemCertificateCache();
    const emptyNode = await loadSystemCertificates({ platform: 'darwin', run, nodeReader: () => [] });
    assert.deepEqual([emptyNode.certificates.map(squash), emptyNode.sources], [[squash(b)], MACOS_KEYCHAINS]);
    clearSystemCertificateCache();
    const bothFail = await loadSystemCertificates({
      platform: 'win32',
      nodeReader: () => { throw new Error('boom'); },
      run: fakeRunner({ '*': new Error('not found') }),
    });
    assert.equal(bothFail.problem, 'tls.getCACertificates: boom; powershell.exe failed (not found)');
  });

  it('reads once per platform even when connections ask at the same time', async () => {
    const [a] = pems as [string];
    let calls = 0;
    const run: CommandRunner = async () => {
      calls++;
      await new Promise((resolve) => setTimeout(resolve, 20));
      return a;
    };
    const results = await Promise.all([1, 2, 3].map(() => loadSystemCertificates({ platform: 'darwin', run, nodeReader: null })));
    assert.deepEqual([calls, results.map((result) => result.cached)], [MACOS_KEYCHAINS.length, [false, true, true]]);
  });
});

describe('the default command runner (real child processes)', () => {
  it('returns stdout, kills a process that never ends at the timeout, and refuses output past maxBytes', { timeout: 20_000 }, async () => {
    const node = process.execPath;
    assert.equal(await runCommand(node, ['-e', 'process.stdout.write("ok")'], { timeoutMs: 5_000, maxBytes: 1024 }), 'ok');

    const started = performance.now();
    await assert.rejects(runCommand(node, ['-e', 'setInterval(() => {}, 1000)'], { timeoutMs: 300, maxBytes: 1024 }), /did not finish within 300 ms \(killed\)/);
    assert.ok(performance.now() - started < 4_000, 'killed, not waited for');

    const flood = performance.now();
    await assert.rejects(
      runCommand(node, ['-e', 'process.stdout.write("x".repeat(100000)); setInterval(() => {}, 1000)'], { timeoutMs: 10_000, maxBytes: 1_000 }),
      /printed more than 1000 bytes/,
    );
    assert.ok(performance.now() - flood < 5_000, 'killed at the bound, not at the timeout');

    await assert.rejects(runCommand(node, ['-e', 'console.error("bad keychain"); process.exit(3)'], { timeoutMs: 5_000, maxBytes: 1024 }), /exited with code 3: bad keychain/);
    await assert.rejects(runCommand('/nonexistent/security', [], { timeoutMs: 1_000, maxBytes: 1024 }), /\/nonexistent\/security not found/);
  });

  it('through loadSystemCertificates, a timeout is a problem and a shell is never involved', { timeout: 20_000 }, async () => {
    clearSystemCertificateCache();
    const hang: CommandRunner = (_file, _args, limits) => runCommand(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], limits);
    const result = await loadSystemCertificates({ platform: 'win32', nodeReader: null, run: hang, timeoutMs: 300 });
    assert.match(result.problem ?? '', /^powershell\.exe failed \(node(\.exe)? did not finish within 300 ms \(killed\)\)$/);
    // Arguments reach the process as they are: no shell expands them.
    assert.equal(await runCommand(process.execPath, ['-e', 'process.stdout.write(process.argv[1])', '$(echo hi); `x` *'], { timeoutMs: 5_000, maxBytes: 1024 }), '$(echo hi); `x` *');
  });
});
