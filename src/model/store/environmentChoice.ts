/**
 * `unleash.environments`: the environments a developer cares about, in their order. Every surface that shows a
 * flag's state per environment shows those (empty: all, in the server's order); the others stay one click away, and
 * the surfaces say how many are hidden.
 */
import * as l10n from '@vscode/l10n';
import { pluralForm } from '../text/intl';

/** A flag's environments as chosen: the chosen ones it has, in the chosen order, and how many others it has. */
export function chooseEnvironments<T extends { name: string }>(envs: readonly T[], chosen: readonly string[]): { shown: T[]; hidden: number } {
  if (chosen.length === 0) return { shown: [...envs], hidden: 0 };
  const byName = new Map(envs.map((env) => [env.name, env]));
  const shown: T[] = [];
  for (const name of new Set(chosen)) {
    const env = byName.get(name);
    if (env) shown.push(env);
  }
  return { shown, hidden: envs.length - shown.length };
}

/**
 * The setting's value, checked: names (strings, trimmed); anything else none. How many and how long is the intake
 * budget's, applied where the setting is read (services/settings.ts).
 */
export function environmentSetting(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value.filter((name): name is string => typeof name === 'string' && name.trim() !== '').map((name) => name.trim());
}

/** `2 more environments, hidden by unleash.environments`. */
export function hiddenEnvironments(hidden: number): string {
  return pluralForm(hidden, {
    one: l10n.t('{0} more environment, hidden by unleash.environments', hidden),
    other: l10n.t('{0} more environments, hidden by unleash.environments', hidden),
  });
}
