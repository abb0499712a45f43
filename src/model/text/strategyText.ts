/**
 * Strategies in the words of Unleash's UI, split so callers decide the layout: `describeStrategy` (one line, display
 * name first; never the title, the disabled state or the constraints), `strategyTitle`, `strategyBadges` (`disabled`,
 * `2 constraints`) and `describeParameters` (every parameter, sorted by name).
 */
import * as l10n from '@vscode/l10n';
import type { Strategy } from '../../api/schemas';
import { joinValues, pluralForm } from './intl';
import { constraintCount, segmentCount, variantCount } from './countText';
import { clean, formatList, MAX_LABEL, oneDecimal, showValue } from './plainText';

/** Read when asked, so they follow the language configured at activation. */
const DISPLAY_NAMES: Readonly<Record<string, () => string>> = {
  default: () => l10n.t('Standard'),
  flexibleRollout: () => l10n.t('Gradual rollout'),
  remoteAddress: () => l10n.t('IPs'),
  applicationHostname: () => l10n.t('Hosts'),
  userWithId: () => l10n.t('User IDs'),
  gradualRolloutRandom: () => l10n.t('Gradual rollout (random)'),
  gradualRolloutSessionId: () => l10n.t('Gradual rollout (session ID)'),
  gradualRolloutUserId: () => l10n.t('Gradual rollout (user ID)'),
};

const MAX_NAME = 60;
/** Most parameters `describeParameters` lists before a last `…` row. */
const MAX_PARAMETERS = 100;

function hasOwn(record: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(record, key);
}

/** `Standard`, `Gradual rollout`, `IPs`, `Hosts`, `User IDs`, …; an unknown strategy keeps its own name. */
export function strategyDisplayName(name: string): string {
  if (hasOwn(DISPLAY_NAMES, name)) return (DISPLAY_NAMES[name] as () => string)();
  return name.trim() === '' ? l10n.t('(unnamed strategy)') : clean(name, MAX_NAME);
}

type ParameterValue = string | number | boolean;

function parameter(s: Strategy, name: string): string | undefined {
  const parameters = s.parameters;
  if (parameters === undefined || !hasOwn(parameters, name)) return undefined;
  const value: ParameterValue | undefined = parameters[name];
  return value === undefined ? undefined : String(value);
}

/** `25%`, `33.3%`; a value that is not a number is shown as given. */
function percentage(raw: string | undefined): string {
  if (raw === undefined || raw.trim() === '') return l10n.t('rollout not set');
  const n = Number(raw);
  return Number.isFinite(n) ? l10n.t('{0}%', oneDecimal(n)) : l10n.t('rollout {0}', showValue(raw, 40));
}

/** The items of a comma-separated parameter (`IPs`, `hostNames`, `userIds`). */
function commaItems(raw: string | undefined): string[] {
  return (raw ?? '').split(',').map((item) => item.trim()).filter((item) => item !== '');
}

/** A comma-separated parameter as a bounded list. */
function commaList(raw: string | undefined): string {
  const items = commaItems(raw);
  return items.length === 0 ? l10n.t('(none)') : formatList(items, { budget: 120 });
}

/** The parameter holding the list a strategy's label names (`IPs: 10.0.0.1, …`), for the strategies that have one. */
const LISTED_PARAMETER: Readonly<Record<string, string>> = { remoteAddress: 'IPs', applicationHostname: 'hostNames', userWithId: 'userIds' };

function summary(s: Strategy): string {
  switch (s.name) {
    case 'default':
      return l10n.t('on for everyone');
    case 'flexibleRollout': {
      const rollout = percentage(parameter(s, 'rollout'));
      const stickiness = parameter(s, 'stickiness');
      return stickiness === undefined || stickiness.trim() === '' ? rollout : l10n.t('{0} of {1}', rollout, clean(stickiness, 40));
    }
    case 'remoteAddress':
      return commaList(parameter(s, 'IPs'));
    case 'applicationHostname':
      return commaList(parameter(s, 'hostNames'));
    case 'userWithId':
      return commaList(parameter(s, 'userIds'));
    case 'gradualRolloutRandom':
    case 'gradualRolloutSessionId':
    case 'gradualRolloutUserId':
      return percentage(parameter(s, 'percentage'));
    default: {
      const pairs = describeParameters(s).map((p) => `${p.name}=${p.value}`);
      return formatList(pairs, { budget: 120 });
    }
  }
}

/**
 * The parameters a strategy's label already says in full, so a list of parameters need not repeat them: a gradual
 * rollout's `rollout` (when `25%` is exactly the value), `stickiness` (when not shortened) and `groupId` when it is
 * the flag's own name (Unleash's default); the IPs, hosts or user IDs of those strategies when every one is named
 * uncut.
 */
export function parametersInLabel(s: Strategy, flagName: string | undefined): Set<string> {
  const said = new Set<string>();
  const listed = Object.prototype.hasOwnProperty.call(LISTED_PARAMETER, s.name) ? LISTED_PARAMETER[s.name] : undefined;
  if (listed !== undefined) {
    const items = commaItems(parameter(s, listed));
    // Said in full: every item shown as it is (none cut, none left for `… and N more`), and the label not cut.
    if (items.length > 0 && commaList(parameter(s, listed)) === joinValues(items) && !describeStrategy(s).endsWith('…')) said.add(listed);
    return said;
  }
  if (s.name !== 'flexibleRollout') return said;
  const rollout = parameter(s, 'rollout');
  if (rollout !== undefined && Number.isFinite(Number(rollout)) && oneDecimal(Number(rollout)) === rollout.trim()) said.add('rollout');
  const stickiness = parameter(s, 'stickiness');
  if (stickiness !== undefined && stickiness.trim() !== '' && clean(stickiness, 40) === stickiness) said.add('stickiness');
  const groupId = parameter(s, 'groupId');
  if (groupId !== undefined && groupId === (flagName ?? s.featureName)) said.add('groupId');
  return said;
}

/**
 * The one-line summary: `Standard: on for everyone`, `Gradual rollout: 25% of userId` (`default` stickiness
 * reads `25% of default`; groupId is left out), `IPs: 10.0.0.1, 192.168.0.0/16`, `Hosts: web-1, web-2`,
 * `User IDs: 1, 2`, and for an unknown strategy `<name>: k=v, k=v` (or just `<name>` without parameters).
 * Excludes title, disabled state and constraints (see `strategyTitle`, `strategyBadges`). At most MAX_LABEL.
 */
export function describeStrategy(s: Strategy): string {
  const text = summary(s);
  const name = strategyDisplayName(s.name);
  return clean(text === '' ? name : l10n.t('{0}: {1}', name, text), MAX_LABEL);
}

/** The strategy's own title, cleaned, or undefined when it has none (null, empty or only spaces). */
export function strategyTitle(s: Strategy): string | undefined {
  if (s.title === undefined || s.title === null) return undefined;
  const title = clean(s.title, MAX_LABEL).trim();
  return title === '' ? undefined : title;
}

/**
 * Short markers, in this order, each present only when it applies: `disabled`, `2 constraints`, `1 segment`,
 * `3 variants`.
 */
export function strategyBadges(s: Strategy): string[] {
  const badges: string[] = [];
  if (s.disabled === true) badges.push(l10n.t('disabled'));
  const constraints = s.constraints?.length ?? 0;
  if (constraints > 0) badges.push(constraintCount(constraints));
  const segments = s.segments?.length ?? 0;
  if (segments > 0) badges.push(segmentCount(segments));
  const variants = s.variants?.length ?? 0;
  if (variants > 0) badges.push(variantCount(variants));
  return badges;
}

/**
 * Every parameter as `{ name, value }`, sorted by name (code-unit order, so the same on every machine). Values are
 * shown as given (numbers and booleans as text, `""` for an empty string), single-line, at most MAX_LABEL long.
 * More than MAX_PARAMETERS parameters end with a row `{ name: '…', value: 'N more parameters' }`.
 */
export function describeParameters(s: Strategy): Array<{ name: string; value: string }> {
  const parameters = s.parameters ?? {};
  const names = Object.keys(parameters).sort();
  const rows = names.slice(0, MAX_PARAMETERS).map((name) => ({
    name: name === '' ? '""' : clean(name, MAX_NAME),
    value: showValue(String(parameters[name]), MAX_LABEL),
  }));
  if (names.length > MAX_PARAMETERS) {
    const more = names.length - MAX_PARAMETERS;
    rows.push({ name: '…', value: pluralForm(more, { one: l10n.t('{0} more parameter', more), other: l10n.t('{0} more parameters', more) }) });
  }
  return rows;
}
