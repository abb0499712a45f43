/**
 * The projects of one server whose listing it failed with a 500 (a real server does for a project holding a flag
 * named `constructor` or `toString`), kept between listings by the one who lists (a server's source), so that each
 * refresh reads them through the search at once instead of asking their listing again for the same 500. Held while
 * the server's version is the one they failed on: an upgrade may list them, so they are asked again then. A new
 * server address is a new source, and a new memory.
 */
import { MAX_PROJECT_LISTINGS } from './listLimits';

export class ListingFallbacks {
  #version: string | undefined;
  readonly #failures = new Map<string, unknown>();

  /** Whether `project` is read through the search at once. */
  has(project: string): boolean {
    return this.#failures.has(project);
  }

  /** Why its listing failed, the last time it was asked. */
  failure(project: string): unknown {
    return this.#failures.get(project);
  }

  /**
   * Whether what is remembered holds on the server as it is now (`version`, undefined when it could not be read: then
   * nothing says it changed); when it does not, it is forgotten.
   */
  holdsFor(version: string | undefined): boolean {
    if (version === undefined || version === this.#version) return true;
    this.#failures.clear();
    return false;
  }

  /** The listing of `project` failed with `error` on a server of `version`. */
  remember(project: string, error: unknown, version: string | undefined): void {
    if (version !== this.#version) this.#failures.clear();
    this.#version = version;
    if (this.#failures.size < MAX_PROJECT_LISTINGS) this.#failures.set(project, error);
  }

  /** `project` was listed: its listing works again. */
  forget(project: string): void {
    this.#failures.delete(project);
  }
}
