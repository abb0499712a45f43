/**
 * The projects each server's last listing found, kept in the extension's global state, so that the first listing in
 * a new window is read like a refresh: every project listed at once, no project list asked (src/api/listing.ts). Only
 * a hint: a project removed since is refused or empty, and the listing's search finds the flags of one created since.
 * Kept per server URL, for the last MAX_SERVERS servers, at most MAX_PROJECTS names each; anything else is ignored.
 */
import { StateKeys } from '../base/constants';
import type { StateMemento } from './stateMemento';

const MAX_SERVERS = 20;
const MAX_PROJECTS = 200;
const MAX_NAME = 200;

type Entry = [server: string, projects: string[]];

export class KnownProjects {
  constructor(private readonly memento: StateMemento) {}

  /** The projects the last listing of this server found (none when it was never listed here). */
  get(server: string): string[] {
    return this.entries().find(([url]) => url === server)?.[1] ?? [];
  }

  /**
   * Keeps the projects of a listing of this server; the server becomes the most recent. Never fails: a write that
   * does not happen only costs the next window the project list.
   */
  async remember(server: string, projects: string[]): Promise<void> {
    const kept = projects.filter(isName).slice(0, MAX_PROJECTS);
    const entries = this.entries();
    if (sameList(entries[0], server, kept)) return;
    const rest = entries.filter(([url]) => url !== server);
    try {
      await this.memento.update(StateKeys.knownProjects, [[server, kept], ...rest].slice(0, MAX_SERVERS));
    } catch {
      // The hint is lost, nothing else.
    }
  }

  private entries(): Entry[] {
    const stored = this.memento.get<unknown>(StateKeys.knownProjects);
    if (!Array.isArray(stored)) return [];
    return stored
      .filter((entry): entry is [string, unknown[]] => Array.isArray(entry) && typeof entry[0] === 'string' && Array.isArray(entry[1]))
      .slice(0, MAX_SERVERS)
      .map(([server, projects]): Entry => [server, projects.filter(isName).slice(0, MAX_PROJECTS)]);
  }
}

function isName(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_NAME;
}

function sameList(entry: Entry | undefined, server: string, projects: string[]): boolean {
  return entry !== undefined && entry[0] === server && entry[1].length === projects.length && entry[1].every((project, i) => project === projects[i]);
}
