/**
 * The API token: kept in SecretStorage, one per server URL, with the UNLEASH_API_TOKEN environment variable as a
 * fallback. It is never written to settings or logs.
 */
import * as vscode from 'vscode';
import { TOKEN_ENV_VAR, tokenSecretKey } from '../base/constants';
import { serverKey } from '../model/settings/settingRules';
import { DisposableStore } from './disposables';

type TokenSource = 'secret' | 'env' | 'none';

export class TokenStore implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly owned: DisposableStore;

  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {
    this.owned = new DisposableStore(
      this.changed,
      secrets.onDidChange((event) => {
        if (event.key.startsWith(tokenSecretKey(''))) this.changed.fire();
      }),
    );
  }

  async get(serverUrl: string): Promise<string | undefined> {
    return (await this.secrets.get(key(serverUrl)))?.trim() || this.env[TOKEN_ENV_VAR]?.trim() || undefined;
  }

  async source(serverUrl: string): Promise<TokenSource> {
    if (await this.secrets.get(key(serverUrl))) return 'secret';
    return this.env[TOKEN_ENV_VAR]?.trim() ? 'env' : 'none';
  }

  async set(serverUrl: string, token: string): Promise<void> {
    await this.secrets.store(key(serverUrl), token.trim());
  }

  async delete(serverUrl: string): Promise<void> {
    await this.secrets.delete(key(serverUrl));
  }

  dispose(): void {
    this.owned.dispose();
  }
}

/**
 * Tokens are kept per server under the key approvals use (`serverKey`), so `https://x/` and `https://x` share one;
 * an invalid URL still gets a key (its text), and the connection reports the setting.
 */
function key(serverUrl: string): string {
  return tokenSecretKey(serverKey(serverUrl) ?? serverUrl.trim());
}
