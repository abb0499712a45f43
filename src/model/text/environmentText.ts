/**
 * A flag row's environment strip, short enough for the default side bar (300 px): initials with state marks (`d● p○`,
 * `d● t● s● p○`), `3 on, 5 off` past four or so; the full names in the tooltip and accessible label. Sized from
 * screenshots (test/e2e/browser.test.ts): a flag row inside a project leaves its description 10 to 12 characters.
 */
import * as l10n from '@vscode/l10n';
import { describeEnvironmentState, DISABLED_MARK, ENABLED_MARK } from './flagText';
import { clean, formatList, MAX_DETAIL } from './plainText';

/** Longest strip: what a 300 px side bar shows beside a flag name of about 20 characters. */
export const STRIP_BUDGET = 12;

/** Short labels people already use for the usual environment names. */
const KNOWN: Readonly<Record<string, string>> = {
  development: 'dev',
  production: 'prod',
  staging: 'stage',
  testing: 'test',
  preproduction: 'preprod',
};

const WORD = /([-_.\s]+)/;

function known(word: string): string | undefined {
  const lower = word.toLowerCase();
  return Object.prototype.hasOwnProperty.call(KNOWN, lower) ? KNOWN[lower] : undefined;
}

/**
 * `development` → `dev`, `production-eu` → `prod-eu`, `qa` → `qa`, `customer-acceptance` → `cust-acce`: names of
 * up to 8 characters as they are, else each word by its usual short form or its first 4 characters (at most 12).
 */
export function shortEnvironmentName(name: string): string {
  const one = clean(name, 60).trim();
  if (one === '') return l10n.t('(unnamed)');
  const whole = known(one);
  if (whole !== undefined) return whole;
  if (one.length <= 8) return one;
  const parts = one.split(WORD).map((part, i) => (i % 2 === 1 ? part : (known(part) ?? part.slice(0, 4))));
  return clean(parts.join(''), 12);
}

/** `development` → `d`, `production-eu` → `pe`, `eu-west-1` → `ew1`: the first character of each word, at most 3. */
export function environmentInitials(name: string): string {
  const words = clean(name, 60).trim().split(WORD).filter((word, i) => i % 2 === 0 && word !== '');
  const firsts = words.map((word) => String.fromCodePoint(word.codePointAt(0) ?? 0x3f));
  return firsts.length === 0 ? '?' : firsts.slice(0, 3).join('');
}

/**
 * The label of each of the catalog's environments in flag rows, unique among `names`: its initials
 * (environmentInitials); names whose initials collide get their short name (shortEnvironmentName), and names whose
 * short names collide too are shown in full (cut at 16 characters).
 */
export function shortEnvironmentNames(names: readonly string[]): Map<string, string> {
  const labels = new Map(names.map((name) => [name, environmentInitials(name)]));
  const fallbacks = [shortEnvironmentName, (name: string) => clean(name, 16).trim() || l10n.t('(unnamed)')];
  for (const fallback of fallbacks) {
    const uses = new Map<string, number>();
    for (const label of labels.values()) uses.set(label, (uses.get(label) ?? 0) + 1);
    for (const [name, label] of labels) if ((uses.get(label) ?? 0) > 1) labels.set(name, fallback(name));
  }
  return labels;
}

/**
 * `d● p○` (● enabled, ○ disabled) in the order given, with `labels` from shortEnvironmentNames. When that is
 * longer than STRIP_BUDGET, how many are on and off: `3 on, 5 off`, `all 8 on`, `all 8 off`. '' for none.
 */
export function compactStrip(
  envs: ReadonlyArray<{ name: string; enabled: boolean }>,
  labels: ReadonlyMap<string, string>,
): string {
  if (envs.length === 0) return '';
  const text = envs
    .map((env) => `${labels.get(env.name) ?? environmentInitials(env.name)}${env.enabled ? ENABLED_MARK : DISABLED_MARK}`)
    .join(' ');
  if (text.length <= STRIP_BUDGET) return text;
  const on = envs.filter((env) => env.enabled).length;
  if (on === envs.length) return l10n.t('all {0} on', on);
  if (on === 0) return l10n.t('all {0} off', envs.length);
  return l10n.t('{0} on, {1} off', on, envs.length - on);
}

/** `development ● enabled, production ○ disabled`, for tooltips; bounded by MAX_DETAIL. */
export function environmentStates(envs: ReadonlyArray<{ name: string; enabled: boolean }>): string {
  const items = envs.map((env) => {
    const name = env.name.trim() === '' ? l10n.t('(unnamed)') : clean(env.name, 40);
    return `${name} ${env.enabled ? ENABLED_MARK : DISABLED_MARK} ${describeEnvironmentState(env.enabled)}`;
  });
  return clean(formatList(items, { maxItems: 20, maxItem: 60, budget: MAX_DETAIL - 20 }), MAX_DETAIL);
}
