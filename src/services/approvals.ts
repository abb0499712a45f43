/**
 * The servers the user allowed although a workspace's settings named them: kept per origin in the extension's
 * global state (not in the workspace, which could forge it), so the question is asked once per server.
 */
import { StateKeys } from '../constants';
import { originOf } from '../model/settingRules';
import type { StateMemento } from './stateMemento';

const KEY = StateKeys.approvedServerOrigins;

export class ServerApprovals {
  constructor(private readonly memento: StateMemento) {}

  isApproved(url: string): boolean {
    const origin = originOf(url);
    return origin !== undefined && this.origins().includes(origin);
  }

  async approve(url: string): Promise<void> {
    const origin = originOf(url);
    if (origin === undefined || this.isApproved(url)) return;
    await this.memento.update(KEY, [...this.origins(), origin]);
  }

  private origins(): string[] {
    const stored = this.memento.get<unknown>(KEY);
    return Array.isArray(stored) ? stored.filter((item): item is string => typeof item === 'string') : [];
  }
}
