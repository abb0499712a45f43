/**
 * The servers the user allowed although a workspace's settings named them: kept by `serverKey` (origin and base path,
 * the key tokens are kept under too) in the extension's global state (not in the workspace, which could forge it),
 * so the question is asked once per server address. Entries written when only the origin counted read as that
 * origin's root path: they never allow another path on the same host.
 */
import { StateKeys } from '../base/constants';
import { serverKey } from '../model/settings/settingRules';
import type { StateMemento } from './stateMemento';

const KEY = StateKeys.approvedServers;

export class ServerApprovals {
  constructor(private readonly memento: StateMemento) {}

  isApproved(url: string): boolean {
    const key = serverKey(url);
    return key !== undefined && this.keys().includes(key);
  }

  async approve(url: string): Promise<void> {
    const key = serverKey(url);
    if (key === undefined || this.isApproved(url)) return;
    await this.memento.update(KEY, [...this.keys(), key]);
  }

  private keys(): string[] {
    const stored = this.memento.get<unknown>(KEY);
    return Array.isArray(stored) ? stored.filter((item): item is string => typeof item === 'string') : [];
  }
}
