/**
 * `unleash.hover.*` of each document's folder, read once per folder until a hover setting or the folders change.
 * Hovers, completion, diagnostics and the flag at the cursor read a document's values here.
 */
import * as vscode from 'vscode';
import { SETTINGS_SECTION, Settings } from '../base/constants';
import { unionOfFilters, type LanguageFilter, type SettingProblem } from '../model/settings/settingRules';
import { DisposableStore } from './disposables';
import { folderScopes, readHoverSettings, type HoverSettings } from './settings';

/**
 * What providers are registered for: the documents any folder's `unleash.hover.languages` covers, and whether any
 * folder has hovers on. Each document then follows its own folder's settings.
 */
interface HoverRegistration {
  languages: LanguageFilter[];
  enabled: boolean;
  /** What every folder's settings left out (malformed, or past the intake budget), once each. */
  problems: SettingProblem[];
}

export class HoverSettingsByFolder implements vscode.Disposable {
  private readonly cache = new Map<string, HoverSettings>();
  private registrationValue: HoverRegistration | undefined;
  private readonly changed = new vscode.EventEmitter<void>();
  /** A `unleash.hover.*` setting or the workspace folders changed. */
  readonly onDidChange = this.changed.event;
  private readonly owned: DisposableStore;

  constructor() {
    const reset = () => {
      this.cache.clear();
      this.registrationValue = undefined;
      this.changed.fire();
    };
    this.owned = new DisposableStore(
      this.changed,
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration(`${SETTINGS_SECTION}.hover`) || event.affectsConfiguration(`${SETTINGS_SECTION}.${Settings.environments}`)) reset();
      }),
      vscode.workspace.onDidChangeWorkspaceFolders(reset),
    );
  }

  /** The settings that apply to `document` (its folder's; the window's for a document outside every folder). */
  of(document: { readonly uri: vscode.Uri }): HoverSettings {
    return this.read(vscode.workspace.getWorkspaceFolder(document.uri)?.uri);
  }

  /** The window's settings (no folder's), for what has no document: read once until they change. */
  window(): HoverSettings {
    return this.read(undefined);
  }

  /** What the providers are registered for, from every folder's settings (read once until they change). */
  registration(): HoverRegistration {
    if (!this.registrationValue) {
      const all = folderScopes().map((folder) => this.read(folder));
      this.registrationValue = {
        languages: unionOfFilters(all.map((settings) => settings.languages)),
        enabled: all.some((settings) => settings.enabled),
        problems: [...new Map(all.flatMap((settings) => settings.problems).map((p) => [`${p.setting}\0${p.problem}`, p])).values()],
      };
    }
    return this.registrationValue;
  }

  /** The settings of `folder` (undefined: the window's), cached until a hover setting or the folders change. */
  private read(folder: vscode.Uri | undefined): HoverSettings {
    const key = folder?.toString() ?? '';
    let settings = this.cache.get(key);
    if (!settings) {
      settings = readHoverSettings(folder);
      this.cache.set(key, settings);
    }
    return settings;
  }

  /** Does `document`'s own `unleash.hover.languages` list its language? */
  covers(document: vscode.TextDocument): boolean {
    const settings = this.of(document);
    return vscode.languages.match(settings.languages, document) > 0;
  }

  dispose(): void {
    this.owned.dispose();
  }
}
