import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CancelledError, HttpError } from '../../src/api/errors';
import type { ListingFailure } from '../../src/api/listingTypes';
import type { Feature, FeatureSummary, Segment } from '../../src/api/schemas';
import type { FlagSource } from '../../src/model/store/flagSource';
import { MAX_LOOKUPS_PER_LISTING } from '../../src/model/store/archivedLookups';
import { FlagStore } from '../../src/model/store/flagStore';
import { PARTIAL_MS } from '../../src/model/store/partialRows';
import { rootNodes } from '../../src/model/tree/root';
import type { CancellationLike } from '../../src/base/emitter';
import { recordingLogger } from '../support/recordingLogger';
import { bounded } from '../support/bounded';

const silent = { info: () => undefined, error: () => undefined };

/** The next change the store announces (rows so far are indexed in time slices before they show). */
function nextChange(store: FlagStore): Promise<void> {
  const changed = new Promise<void>((resolve) => {
    const listening = store.onDidChange(() => {
      listening.dispose();
      resolve();
    });
  });
  return bounded(changed, 'the store to show rows');
}

/** A source whose reads wait until released, counting calls and aborts. */
class SlowSource implements FlagSource {
  readonly kind = 'server' as const;
  readonly label = 'test';
  calls = { list: 0, feature: 0, segments: 0, aborted: 0 };
  private releases: Array<() => void> = [];
  constructor(private readonly features: FeatureSummary[]) {}

  release(): void {
    for (const release of this.releases.splice(0)) release();
  }

  private wait<T>(value: T, signal?: AbortSignal): Promise<T> {
    return new Promise((resolve, reject) => {
      signal?.addEventListener('abort', () => {
        this.calls.aborted++;
        reject(new CancelledError());
      });
      this.releases.push(() => resolve(value));
    });
  }

  listFeatures(signal?: AbortSignal) {
    this.calls.list++;
    return this.wait(this.features, signal);
  }
  getFeature(project: string, name: string, signal?: AbortSignal) {
    this.calls.feature++;
    return this.wait<Feature>({ name, project }, signal);
  }
  getStrategySegments(_id: string, signal?: AbortSignal) {
    this.calls.segments++;
    return this.wait<Segment[]>([], signal);
  }
  async listEnvironments() {
    return ['development'];
  }
}

function token(): CancellationLike & { cancel(): void } {
  const listeners = new Set<() => void>();
  let cancelled = false;
  return {
    get isCancellationRequested() {
      return cancelled;
    },
    onCancellationRequested(listener) {
      listeners.add(listener);
      return { dispose: () => listeners.delete(listener) };
    },
    cancel() {
      cancelled = true;
      for (const listener of listeners) listener();
    },
  };
}

/** A source that hands out its rows in batches, as a listing in progress does, and finishes when told. */
class StreamingSource extends SlowSource {
  onRows: ((rows: FeatureSummary[]) => void) | undefined;
  override listFeatures(signal?: AbortSignal, onRows?: (rows: FeatureSummary[]) => void) {
    this.onRows = onRows;
    return super.listFeatures(signal);
  }
}

describe('FlagStore while a listing arrives', () => {
  const rows = (...names: string[]) => names.map((name) => ({ name, project: 'p' }));
  const shown = (store: FlagStore) => store.catalog.flags.map((flag) => flag.name).join(',');

  it('shows the first batch at once and the rest as it arrives, still loading', async () => {
    const source = new StreamingSource(rows('a', 'b', 'c', 'd'));
    const store = new FlagStore(silent);
    void store.load(); // the flags are needed from the start
    const loading = store.setSource(source, 'ready');
    source.onRows?.(rows('c', 'a'));
    await nextChange(store);
    assert.equal(shown(store), 'a,c', 'the first batch, before the listing ends');
    assert.equal(store.state, 'loading');
    source.onRows?.(rows('b'));
    await new Promise((resolve) => setTimeout(resolve, PARTIAL_MS + 50));
    assert.equal(shown(store), 'a,b,c', 'later batches, at most every PARTIAL_MS');
    source.release();
    await loading;
    assert.equal(shown(store), 'a,b,c,d');
    assert.equal(store.state, 'ready');
  });

  it('groups the rows so far by project while they arrive, and shows one project flat only once complete', async () => {
    const source = new StreamingSource(rows('a', 'b'));
    const store = new FlagStore(silent);
    void store.load(); // the flags are needed from the start
    const loading = store.setSource(source, 'ready');
    source.onRows?.(rows('a'));
    await nextChange(store);
    assert.equal(store.partial, true);
    assert.deepEqual(rootNodes(store).map((node) => `${node.kind} ${node.label}`), ['project p'], 'the next batch may be another project');
    source.release();
    await loading;
    assert.equal(store.partial, false);
    assert.deepEqual(rootNodes(store).map((node) => `${node.kind} ${node.label}`), ['feature a', 'feature b'], 'complete: one project, flat');
  });

  it('a refresh keeps showing the previous catalog until the new one is complete', async () => {
    const source = new StreamingSource(rows('a', 'b'));
    const store = new FlagStore(silent);
    void store.load(); // the flags are needed from the start
    const first = store.setSource(source, 'ready');
    source.release();
    await first;
    const refreshing = store.refresh();
    assert.equal(source.onRows, undefined, 'no partial rows are asked for');
    assert.equal(shown(store), 'a,b');
    source.release();
    await refreshing;
    assert.equal(shown(store), 'a,b');
  });
});

describe('FlagStore', () => {
  it('fills the catalog from one listing and reports its state', async () => {
    const source = new SlowSource([{ name: 'b', project: 'p' }, { name: 'a', project: 'p' }]);
    const store = new FlagStore(silent);
    void store.load(); // the flags are needed from the start
    const states: string[] = [];
    store.onDidChange(() => states.push(store.state));
    const loading = store.setSource(source, 'ready');
    source.release();
    await loading;
    assert.deepEqual(states, ['loading', 'ready']);
    assert.deepEqual(store.catalog.flags.map((flag) => flag.name), ['a', 'b']);
    assert.equal(source.calls.list, 1);
  });

  it('reads a feature once for concurrent callers and caches it until refresh', async () => {
    const source = new SlowSource([{ name: 'a', project: 'p' }]);
    const store = new FlagStore(silent);
    void store.load(); // the flags are needed from the start
    const loading = store.setSource(source, 'ready');
    source.release();
    await loading;
    const first = store.feature('p', 'a');
    const second = store.feature('p', 'a');
    source.release();
    assert.equal(await first, await second);
    assert.equal(source.calls.feature, 1);
    assert.ok(store.peekFeature('p', 'a'));
    const refreshing = store.refresh();
    assert.equal(store.peekFeature('p', 'a'), undefined, 'refresh forgets details');
    source.release();
    await refreshing;
  });

  it('aborts the request only when every waiting caller cancelled', async () => {
    const source = new SlowSource([]);
    const store = new FlagStore(silent);
    void store.load(); // the flags are needed from the start
    const loading = store.setSource(source, 'ready');
    source.release();
    await loading;
    const one = token();
    const two = token();
    const first = store.feature('p', 'a', one);
    const second = store.feature('p', 'a', two);
    one.cancel();
    await assert.rejects(first, CancelledError);
    assert.equal(source.calls.aborted, 0, 'the second caller still waits');
    two.cancel();
    await assert.rejects(second, CancelledError);
    assert.equal(source.calls.aborted, 1);
    const third = store.feature('p', 'a');
    source.release();
    assert.equal((await third).name, 'a', 'a new caller starts a new read');
  });

  it('supersedes a refresh in flight', async () => {
    const source = new SlowSource([{ name: 'a', project: 'p' }]);
    const store = new FlagStore(silent);
    void store.load(); // the flags are needed from the start
    const first = store.setSource(source, 'ready');
    const second = store.refresh();
    assert.equal(source.calls.aborted, 1);
    source.release();
    await Promise.all([first, second]);
    assert.equal(store.state, 'ready');
    assert.equal(store.catalog.size, 1);
  });

  it('shows why there is nothing when there is no source', async () => {
    const store = new FlagStore(silent);
    void store.load(); // the flags are needed from the start
    await store.setSource(undefined, 'noToken');
    assert.equal(store.state, 'noToken');
    assert.equal(store.catalog.size, 0);
  });

  it('keeps the error of a failed listing for the view to show', async () => {
    const store = new FlagStore(silent);
    void store.load(); // the flags are needed from the start
    const failing: FlagSource = {
      kind: 'server',
      label: 'x',
      listFeatures: async () => {
        throw new Error('boom');
      },
      getFeature: async () => ({ name: 'x' }),
      getStrategySegments: async () => [],
      listEnvironments: async () => [],
    };
    await store.setSource(failing, 'ready');
    assert.equal(store.state, 'error');
    assert.equal((store.error as Error).message, 'boom');
  });
});

/** A source whose next listing answers what the test says: rows (with failed projects) or an error. */
class ScriptedSource implements FlagSource {
  readonly kind = 'server' as const;
  readonly label = 'unleash.example.com';
  failedProjects: ListingFailure[] = [];
  next: { rows: FeatureSummary[]; failed?: ListingFailure[] } | { error: unknown } = { rows: [] };
  /** Set while a listing waits to be answered. */
  onRows: ((rows: FeatureSummary[]) => void) | undefined;
  private answers: Array<() => void> = [];
  hold = false;

  async listFeatures(_signal?: AbortSignal, onRows?: (rows: FeatureSummary[]) => void): Promise<FeatureSummary[]> {
    this.onRows = onRows;
    if (this.hold) await new Promise<void>((resolve) => this.answers.push(resolve));
    const next = this.next;
    if ('error' in next) throw next.error;
    this.failedProjects = next.failed ?? [];
    return next.rows;
  }
  /** Answers every listing waiting. */
  release(): void {
    for (const answer of this.answers.splice(0)) answer();
  }
  getFeature = async (project: string, name: string): Promise<Feature> => ({ name, project });
  getStrategySegments = async (): Promise<Segment[]> => [];
  listEnvironments = async () => [];
}

describe('FlagStore when parts fail', () => {
  const rows = (project: string, ...names: string[]) => names.map((name) => ({ name, project }));
  const names = (store: FlagStore) => store.catalog.flags.map((flag) => `${flag.project}/${flag.name}`).join(',');
  const failure: ListingFailure = {
    project: 'odd',
    error: new HttpError({ status: 500, request: 'GET /api/admin/projects/odd/features', serverMessage: "Cannot read properties of undefined (reading 'some')" }),
    searchError: new HttpError({ status: 502, request: 'GET /api/admin/search/features' }),
  };

  it('keeps the projects that could not be read beside the catalog, and logs which request failed', async () => {
    const { logger, lines } = recordingLogger();
    const store = new FlagStore(logger);
    void store.load();
    const source = new ScriptedSource();
    source.next = { rows: rows('default', 'a'), failed: [failure] };
    await store.setSource(source, 'ready');
    assert.equal(store.state, 'ready');
    assert.equal(names(store), 'default/a');
    assert.deepEqual(store.failures.map((failed) => failed.project), ['odd']);
    assert.ok(
      lines.includes(
        "The flags of project odd could not be read: The server answered 500: Cannot read properties of undefined (reading 'some') (GET /api/admin/projects/odd/features); " +
          'through the search: The server answered 502 (GET /api/admin/search/features)',
      ),
      lines.join('\n'),
    );
  });

  it('a refresh that fails keeps the catalog and its failed projects, out of date with why; the next that works is current', async () => {
    const store = new FlagStore(silent);
    void store.load();
    const source = new ScriptedSource();
    source.next = { rows: rows('default', 'a', 'b'), failed: [failure] };
    await store.setSource(source, 'ready');
    const loadedAt = store.refreshedAt;
    assert.ok(loadedAt);

    const refused = new HttpError({ status: 503, request: 'GET /api/admin/search/features' });
    source.next = { error: refused };
    await store.refresh();
    assert.equal(store.state, 'ready');
    assert.equal(names(store), 'default/a,default/b');
    assert.deepEqual(store.failures, [failure]);
    assert.equal(store.outOfDate, refused);
    assert.equal(store.refreshedAt, loadedAt, 'the catalog is still that of the last listing that worked');

    source.next = { rows: rows('default', 'a', 'b', 'c') };
    await store.refresh();
    assert.equal(store.outOfDate, undefined);
    assert.deepEqual(store.failures, []);
    assert.equal(names(store), 'default/a,default/b,default/c');
  });

  it('a refresh that fails after a superseded one showed rows so far restores the last complete catalog', async () => {
    const store = new FlagStore(silent);
    void store.load();
    const source = new ScriptedSource();
    source.next = { rows: rows('default', 'a', 'b') };
    await store.setSource(source, 'ready');
    source.hold = true;
    const superseded = store.refresh();
    const second = store.refresh();
    source.onRows?.(rows('default', 'partial'));
    await nextChange(store);
    assert.equal(names(store), 'default/partial', 'the rows of the listing in flight');
    source.next = { error: new Error('socket hang up') };
    source.release();
    await Promise.all([superseded, second]);
    assert.equal(store.state, 'ready');
    assert.equal(names(store), 'default/a,default/b');
    assert.equal((store.outOfDate as Error).message, 'socket hang up');
  });

  it("a new source whose first listing fails shows the error, never the previous source's flags", async () => {
    const store = new FlagStore(silent);
    void store.load();
    const first = new ScriptedSource();
    first.next = { rows: rows('default', 'a') };
    await store.setSource(first, 'ready');
    const second = new ScriptedSource();
    second.next = { error: new Error('ECONNREFUSED') };
    await store.setSource(second, 'ready');
    assert.equal(store.state, 'error');
    assert.equal(store.catalog.size, 0);
    assert.equal(store.outOfDate, undefined);
  });

  it('takes a batch of 130,000 rows as it arrives (appended one by one, not as call arguments)', async () => {
    const store = new FlagStore(silent);
    void store.load();
    const source = new ScriptedSource();
    source.hold = true;
    const loading = store.setSource(source, 'ready');
    const many = Array.from({ length: 130_000 }, (_, i) => ({ name: `f${i}`, project: 'default' }));
    source.onRows?.(many);
    await nextChange(store);
    assert.equal(store.catalog.size, 130_000);
    source.next = { rows: many };
    source.release();
    await loading;
    assert.equal(store.catalog.size, 130_000);
  });
});

describe('FlagStore reads nothing until the flags are needed', () => {
  const flags = [{ name: 'a', project: 'p' }];

  it('a source set before any need leaves the store idle: no request, the catalog empty', async () => {
    const source = new SlowSource(flags);
    const store = new FlagStore(silent);
    const states: string[] = [];
    store.onDidChange(() => states.push(store.state));
    await store.setSource(source, 'ready');
    assert.deepEqual(states, ['idle']);
    assert.deepEqual([source.calls.list, source.calls.feature, source.calls.segments], [0, 0, 0]);
    assert.equal(store.catalog.size, 0);
    store.dispose();
  });

  it('the first load() reads the list; concurrent demands share that one listing', async () => {
    const source = new SlowSource(flags);
    const store = new FlagStore(silent);
    await store.setSource(source, 'ready');
    const demands = [store.load(), store.load(), store.load()];
    assert.equal(store.state, 'loading');
    assert.equal(source.calls.list, 1, 'one listing for three demands');
    let settled = 0;
    for (const demand of demands) void demand.then(() => settled++);
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(settled, 0, 'every demand waits for the listing');
    source.release();
    await Promise.all(demands);
    assert.equal(store.state, 'ready');
    assert.deepEqual(store.catalog.flags.map((flag) => flag.name), ['a']);
    await store.load();
    assert.equal(source.calls.list, 1, 'a later demand reads nothing again');
    store.dispose();
  });

  it('once needed, a new source (a settings change) is read at once; a demand before any source counts', async () => {
    const store = new FlagStore(silent);
    await store.load();
    assert.equal(store.state, 'loading', 'no source yet: nothing to read');
    const first = new SlowSource(flags);
    const loading = store.setSource(first, 'ready');
    assert.equal(first.calls.list, 1, 'needed before the source was known');
    first.release();
    await loading;
    const second = new SlowSource(flags);
    const reloading = store.setSource(second, 'ready');
    assert.equal(second.calls.list, 1);
    second.release();
    await reloading;
    assert.equal(store.state, 'ready');
    store.dispose();
  });

  it("a demand's cancellation ends its wait, not the listing another demand waits for", async () => {
    const source = new SlowSource(flags);
    const store = new FlagStore(silent);
    await store.setSource(source, 'ready');
    const cancel = token();
    const impatient = store.load(cancel);
    const patient = store.load();
    cancel.cancel();
    await impatient;
    assert.equal(store.state, 'loading');
    assert.equal(source.calls.aborted, 0);
    source.release();
    await patient;
    assert.equal(store.state, 'ready');
    store.dispose();
  });

  it('a demand that waits across a source change waits for the new listing', async () => {
    const first = new SlowSource(flags);
    const store = new FlagStore(silent);
    await store.setSource(first, 'ready');
    const waiting = store.load();
    const second = new SlowSource([{ name: 'b', project: 'p' }]);
    void store.setSource(second, 'ready');
    assert.equal(first.calls.aborted, 1, 'the superseded listing is aborted');
    second.release();
    await waiting;
    assert.deepEqual(store.catalog.flags.map((flag) => flag.name), ['b']);
    store.dispose();
  });

  it('the refresh interval re-reads only a store that was needed', async (t) => {
    t.mock.timers.enable({ apis: ['setInterval'] });
    const source = new SlowSource(flags);
    const store = new FlagStore(silent);
    await store.setSource(source, 'ready');
    store.setRefreshInterval(1);
    t.mock.timers.tick(3 * 60_000);
    assert.equal(source.calls.list, 0, 'idle: the timer reads nothing');
    void store.load();
    source.release();
    await store.load();
    t.mock.timers.tick(60_000);
    assert.equal(source.calls.list, 2, 'needed: the timer re-reads');
    store.dispose();
  });

  it('no source: load() resolves at once and reads nothing', async () => {
    const store = new FlagStore(silent);
    await store.setSource(undefined, 'noServer');
    await store.load();
    assert.equal(store.state, 'noServer');
    store.dispose();
  });
});

describe('FlagStore: names looked up among archived flags', () => {
  class ArchiveSource extends ScriptedSource {
    readonly asked: string[] = [];
    failing = new Set<string>();
    findArchived = async (name: string): Promise<FeatureSummary | undefined> => {
      this.asked.push(name);
      if (this.failing.has(name)) throw new HttpError({ status: 429, request: 'GET /api/admin/search/features' });
      return name === 'old-banner' ? { name, project: 'default', archived: true } : undefined;
    };
  }

  it('asks once per name; a failure is remembered (unknown, not asked again) and logged; every answer is a status change', async () => {
    const { logger, lines } = recordingLogger();
    const store = new FlagStore(logger);
    void store.load();
    const source = new ArchiveSource();
    source.failing.add('throttled');
    await store.setSource(source, 'ready');
    let changes = 0;
    store.onDidChangeStatus(() => changes++);
    assert.equal((await store.findArchived('old-banner'))?.name, 'old-banner');
    assert.equal(await store.findArchived('old-banner').then((flag) => flag?.name), 'old-banner');
    await assert.rejects(store.findArchived('throttled'), HttpError);
    assert.equal(await store.findArchived('throttled'), undefined, 'not asked again');
    assert.deepEqual([store.archivedLookupFailed('throttled'), store.peekArchived('throttled'), store.peekArchived('old-banner')?.name], [true, undefined, 'old-banner']);
    assert.deepEqual(source.asked, ['old-banner', 'throttled']);
    assert.equal(changes, 2);
    assert.ok(lines.some((line) => line.startsWith('Looking for an archived flag named "throttled" failed: The server answered 429')), lines.join('\n'));
    store.dispose();
  });

  it(`asks at most ${MAX_LOOKUPS_PER_LISTING} names per listing (Unleash 8 limits searches); a refresh allows more`, async () => {
    const store = new FlagStore(silent);
    void store.load();
    const source = new ArchiveSource();
    await store.setSource(source, 'ready');
    const names = Array.from({ length: MAX_LOOKUPS_PER_LISTING + 2 }, (_, i) => `typo-${i}`);
    for (const name of names) await store.findArchived(name);
    assert.equal(source.asked.length, MAX_LOOKUPS_PER_LISTING);
    assert.deepEqual(names.map((name) => store.archivedLookupFailed(name)), names.map((_, i) => i >= MAX_LOOKUPS_PER_LISTING));
    await store.refresh();
    await store.findArchived('typo-11');
    assert.equal(source.asked.at(-1), 'typo-11');
    store.dispose();
  });
});
