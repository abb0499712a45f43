/** The part of `vscode.Memento` the extension's global state is used through (a plain object in tests). */
export interface StateMemento {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Thenable<void>;
}
