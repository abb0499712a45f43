/** The read-only documents a command opened last (a diff's sides), kept by the key in their address: the last few only. */
import * as vscode from 'vscode';

export class RecentDocuments<T extends { text: string }> implements vscode.TextDocumentContentProvider {
  private readonly entries = new Map<string, T>();
  private next = 0;

  /** `closed`: what a document that is no longer kept shows. */
  constructor(
    private readonly scheme: string,
    private readonly keep: number,
    private readonly closed: () => string,
  ) {}

  /** Keeps `entry` under a new address named `name` (a tab's title: its slashes cannot add path segments). */
  add(name: string, entry: T): vscode.Uri {
    const key = String(++this.next);
    this.entries.set(key, entry);
    if (this.entries.size > this.keep) this.entries.delete(this.entries.keys().next().value as string);
    return vscode.Uri.from({ scheme: this.scheme, path: `/${name.replace(/[/\\]/g, '∕')}`, query: key });
  }

  get(uri: vscode.Uri): T | undefined {
    return this.entries.get(uri.query);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.get(uri)?.text ?? this.closed();
  }

  register(): vscode.Disposable {
    return vscode.workspace.registerTextDocumentContentProvider(this.scheme, this);
  }
}
