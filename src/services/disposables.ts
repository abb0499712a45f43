/**
 * The one way the editor side owns what it must release: a DisposableStore (what a class or a `register…()` holds,
 * disposed together), and `registerAgainOn` (a registration made anew whenever its settings change).
 */
import type { Disposable, Event } from '../base/emitter';

export class DisposableStore implements Disposable {
  private readonly owned: Disposable[] = [];
  private disposed = false;

  constructor(...items: Disposable[]) {
    for (const item of items) this.add(item);
  }

  /** Owns `item` (disposed at once when the store already is); a function is run on dispose. */
  add<T extends Disposable>(item: T): T;
  add(teardown: () => void): void;
  add(item: Disposable | (() => void)): Disposable | void {
    const disposable = typeof item === 'function' ? { dispose: item } : item;
    if (this.disposed) disposable.dispose();
    else this.owned.push(disposable);
    return typeof item === 'function' ? undefined : item;
  }

  /** Disposes everything owned, in the order it was added. */
  dispose(): void {
    this.disposed = true;
    for (const item of this.owned.splice(0)) item.dispose();
  }
}

/**
 * `register()` now, and again (the previous registration disposed first) whenever `changed` fires; `register` may
 * answer undefined (nothing to register while, say, a feature is off).
 */
export function registerAgainOn(changed: Event<unknown>, register: () => Disposable | undefined): Disposable {
  let registration = register();
  const owned = new DisposableStore(
    changed(() => {
      registration?.dispose();
      registration = undefined;
      registration = register();
    }),
  );
  owned.add(() => registration?.dispose());
  return owned;
}
