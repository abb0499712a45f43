import assert from 'node:assert/strict';
// The module object itself (not a namespace copy), so that tests can replace its methods with `mock.method`.
import { promises as fsp } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import { tempPathFor, writeFileAtomic } from '../../src/base/atomicWrite';

let dir: string;

beforeEach(async () => {
  dir = await fsp.mkdtemp(path.join(tmpdir(), 'atomic-write-'));
});

afterEach(async () => {
  mock.restoreAll();
  await fsp.rm(dir, { recursive: true, force: true });
});

/** Every file under `folder`, relative, sorted. */
async function listFiles(folder: string): Promise<string[]> {
  const entries = await fsp.readdir(folder, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(folder, path.join(entry.parentPath, entry.name)))
    .sort();
}

const isAbort = (error: unknown) => error instanceof Error && error.name === 'AbortError';

describe('writeFileAtomic', () => {
  it('writes a string, creating missing parent folders, and leaves nothing else behind', async () => {
    const target = path.join(dir, '.unleash', 'nested', 'development.json');
    await writeFileAtomic(target, '{"features":[]}\n');
    assert.equal(await fsp.readFile(target, 'utf8'), '{"features":[]}\n');
    assert.deepEqual(await listFiles(dir), [path.join('.unleash', 'nested', 'development.json')]);
  });

  it('writes bytes and replaces an existing file', async () => {
    const target = path.join(dir, 'out.bin');
    await fsp.writeFile(target, 'old content that is longer than the new one');
    await writeFileAtomic(target, new Uint8Array([0, 1, 2, 255]));
    assert.deepEqual(new Uint8Array(await fsp.readFile(target)), new Uint8Array([0, 1, 2, 255]));
    assert.deepEqual(await listFiles(dir), ['out.bin']);
  });

  it('keeps the permissions of the file it replaces', { skip: process.platform === 'win32' }, async () => {
    const target = path.join(dir, 'private.json');
    await fsp.writeFile(target, 'old');
    await fsp.chmod(target, 0o600);
    await writeFileAtomic(target, 'new');
    assert.equal((await fsp.stat(target)).mode & 0o777, 0o600);
  });

  it('names its temporary file .<name>.<pid>.<random>.tmp in the same folder', () => {
    const target = path.join(dir, 'development.json');
    const temp = tempPathFor(target);
    assert.equal(path.dirname(temp), dir);
    assert.match(path.basename(temp), new RegExp(`^\\.development\\.json\\.${process.pid}\\.[0-9a-f]{12}\\.tmp$`));
    assert.notEqual(tempPathFor(target), temp);
    assert.ok(Buffer.byteLength(path.basename(tempPathFor(path.join(dir, 'x'.repeat(250))))) < 255);
  });

  it('leaves an existing file byte-identical and removes its temporary file when the rename fails', async () => {
    const target = path.join(dir, 'development.json');
    const original = Buffer.from('{"features":["original"]}\n');
    await fsp.writeFile(target, original);
    let renamedFrom: string | undefined;
    mock.method(fsp, 'rename', async (from: string) => {
      renamedFrom = from;
      throw Object.assign(new Error('EIO: i/o error, rename (simulated)'), { code: 'EIO' });
    });
    await assert.rejects(writeFileAtomic(target, '{"features":["new"]}\n'), /simulated/);
    mock.restoreAll();
    assert.ok(renamedFrom, 'the temporary file was written and a rename attempted');
    assert.equal(path.dirname(renamedFrom), dir);
    assert.deepEqual(await fsp.readFile(target), original);
    assert.deepEqual(await listFiles(dir), ['development.json']);
  });

  it('leaves an existing file byte-identical and removes its temporary file when the write itself fails', async () => {
    const target = path.join(dir, 'development.json');
    const original = Buffer.from('original\n');
    await fsp.writeFile(target, original);
    const realOpen = fsp.open;
    mock.method(fsp, 'open', async (...args: Parameters<typeof fsp.open>) => {
      const handle = await realOpen(...args);
      if (String(args[0]).endsWith('.tmp')) {
        mock.method(handle, 'sync', async () => {
          throw Object.assign(new Error('ENOSPC: no space left on device (simulated)'), { code: 'ENOSPC' });
        });
      }
      return handle;
    });
    await assert.rejects(writeFileAtomic(target, 'new\n'), /ENOSPC/);
    mock.restoreAll();
    assert.deepEqual(await fsp.readFile(target), original);
    assert.deepEqual(await listFiles(dir), ['development.json']);
  });

  it('fails cleanly when the parent "folder" is a file', async () => {
    const blocker = path.join(dir, 'not-a-folder');
    await fsp.writeFile(blocker, 'I am a file');
    await assert.rejects(writeFileAtomic(path.join(blocker, 'development.json'), 'x'), (error: unknown) =>
      ['ENOTDIR', 'EEXIST'].includes(String((error as { code?: unknown }).code)),
    );
    assert.equal(await fsp.readFile(blocker, 'utf8'), 'I am a file');
    assert.deepEqual(await listFiles(dir), ['not-a-folder']);
  });

  it('does nothing when the signal is already aborted', async () => {
    const target = path.join(dir, 'development.json');
    await fsp.writeFile(target, 'original');
    await assert.rejects(writeFileAtomic(target, 'new', { signal: AbortSignal.abort() }), isAbort);
    await assert.rejects(writeFileAtomic(path.join(dir, 'sub', 'new.json'), 'new', { signal: AbortSignal.abort() }), isAbort);
    assert.equal(await fsp.readFile(target, 'utf8'), 'original');
    assert.deepEqual(await listFiles(dir), ['development.json']);
  });

  it('removes its temporary file and keeps the target when aborted after the temporary file was created', async () => {
    const target = path.join(dir, 'development.json');
    await fsp.writeFile(target, 'original');
    const controller = new AbortController();
    const realOpen = fsp.open;
    let tempSeen: string | undefined;
    mock.method(fsp, 'open', async (...args: Parameters<typeof fsp.open>) => {
      const handle = await realOpen(...args);
      if (String(args[0]).endsWith('.tmp')) {
        tempSeen = String(args[0]);
        controller.abort();
      }
      return handle;
    });
    await assert.rejects(writeFileAtomic(target, 'x'.repeat(1 << 20), { signal: controller.signal }), isAbort);
    mock.restoreAll();
    assert.ok(tempSeen);
    await assert.rejects(fsp.stat(tempSeen), { code: 'ENOENT' });
    assert.equal(await fsp.readFile(target, 'utf8'), 'original');
    assert.deepEqual(await listFiles(dir), ['development.json']);
  });

  it('serializes 20 concurrent writes to one path: one complete file, the last one, and no leftovers', async () => {
    const target = path.join(dir, 'exports', 'development.json');
    const inputs = Array.from({ length: 20 }, (_, i) => `${String(i).padStart(2, '0')}:${String.fromCharCode(97 + i).repeat(200_000 + i * 1000)}\n`);

    let inFlight = 0;
    let maxInFlight = 0;
    const realOpen = fsp.open;
    const realRename = fsp.rename;
    mock.method(fsp, 'open', async (...args: Parameters<typeof fsp.open>) => {
      if (String(args[0]).endsWith('.tmp')) maxInFlight = Math.max(maxInFlight, ++inFlight);
      return realOpen(...args);
    });
    mock.method(fsp, 'rename', async (...args: Parameters<typeof fsp.rename>) => {
      try {
        return await realRename(...args);
      } finally {
        inFlight--;
      }
    });

    await Promise.all(inputs.map((data) => writeFileAtomic(target, data)));
    mock.restoreAll();
    assert.equal(maxInFlight, 1, 'writes to the same path must not overlap');
    const content = await fsp.readFile(target, 'utf8');
    assert.ok(inputs.includes(content), 'the file is one complete input');
    assert.equal(content, inputs[inputs.length - 1], 'writes run in call order');
    assert.deepEqual(await listFiles(dir), [path.join('exports', 'development.json')]);
  });

  it('lets a queued write be aborted without disturbing the others', async () => {
    const target = path.join(dir, 'development.json');
    const controller = new AbortController();
    const first = writeFileAtomic(target, 'first');
    const second = writeFileAtomic(target, 'second', { signal: controller.signal });
    const third = writeFileAtomic(target, 'third');
    controller.abort();
    await assert.rejects(second, isAbort);
    await Promise.all([first, third]);
    assert.equal(await fsp.readFile(target, 'utf8'), 'third');
    assert.deepEqual(await listFiles(dir), ['development.json']);
  });

  it('carries on after a failed write to the same path', async () => {
    const target = path.join(dir, 'development.json');
    mock.method(fsp, 'rename', async () => {
      throw Object.assign(new Error('simulated'), { code: 'EIO' });
    });
    const failing = writeFileAtomic(target, 'lost');
    await assert.rejects(failing, /simulated/);
    mock.restoreAll();
    await writeFileAtomic(target, 'kept');
    assert.equal(await fsp.readFile(target, 'utf8'), 'kept');
  });
});

