/**
 * One event of a flag's history in words: who, when, and what changed (`enabled in production`, `tagged
 * team:payments`). Built from the event's own fields, never from the server's markdown `summary` (it holds
 * user-written names). Every piece is `clean()`ed and bounded; callers escape for markdown.
 */
import * as l10n from '@vscode/l10n';
import type { FeatureEvent } from '../../api/activitySchemas';
import { joinValues } from '../text/intl';
import { clean, oneDecimal, parseIsoUtc } from '../text/plainText';
import { strategyDisplayName } from '../text/strategyText';
import { INTAKE_BUDGET } from '../../base/intakeBudget';

interface EventText {
  /** Who made the change (the event's `createdBy`), or `someone`. */
  who: string;
  /** What changed, a phrase without its subject: `enabled in production`. */
  what: string;
  /** When, in milliseconds since the epoch; undefined when the server's time does not parse. */
  at?: number;
}

const MAX_NAME = 60;
const MAX_WHO = 80;
const MAX_WHAT = 300;
/** Characters of a time the server wrote that does not parse. */
const MAX_TIME = 40;

type Json = Record<string, unknown>;

function record(value: unknown): Json | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : undefined;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/** `“Staff e-mail addresses”` (its title) or `Gradual rollout` (its kind), from a strategy in an event. */
function strategyName(data: Json | undefined): string {
  const title = text(data?.title);
  if (title !== undefined) return l10n.t('“{0}”', clean(title, MAX_NAME));
  const name = text(data?.name);
  return name === undefined ? l10n.t('a strategy') : strategyDisplayName(name);
}

/** `team:payments`, from a tag in an event. */
function tagName(data: Json | undefined): string {
  const type = text(data?.type) ?? text(data?.tagType) ?? '';
  const value = text(data?.value) ?? text(data?.tagValue) ?? '';
  return clean(type === '' ? value : `${type}:${value}`, MAX_NAME);
}

/** Levels `same` compares before it calls two values different (an event nested deeper is not ours to walk). */
const MAX_COMPARED_DEPTH = INTAKE_BUDGET.depth;
/** Values `same` compares at most (a hostile event may hold a strategy of 300,000 constraint values). */
const MAX_COMPARED_VALUES = 100_000;

/**
 * Equal as JSON data, whatever the order of keys (an `undefined` member counts as absent, as in JSON): iterative, so
 * a change nested thousands deep never exhausts the stack; past MAX_COMPARED_DEPTH levels or MAX_COMPARED_VALUES
 * values the two are called different (the change is then worded without that detail being proved equal).
 */
function same(a: unknown, b: unknown, skip?: string): boolean {
  const pending: Array<[unknown, unknown, number]> = [[a ?? null, b ?? null, 0]];
  let compared = 0;
  while (pending.length > 0) {
    const [x, y, depth] = pending.pop() as [unknown, unknown, number];
    if (++compared > MAX_COMPARED_VALUES) return false;
    if (x === y) continue;
    if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null) return false;
    if (depth >= MAX_COMPARED_DEPTH || Array.isArray(x) !== Array.isArray(y)) return false;
    if (Array.isArray(x)) {
      const other = y as unknown[];
      if (x.length !== other.length) return false;
      for (let i = 0; i < x.length; i++) pending.push([x[i] ?? null, other[i] ?? null, depth + 1]);
      continue;
    }
    const left = x as Json;
    const right = y as Json;
    let keys = 0;
    for (const key in left) {
      if (!Object.prototype.hasOwnProperty.call(left, key) || left[key] === undefined || (depth === 0 && key === skip)) continue;
      keys++;
      if (!Object.prototype.hasOwnProperty.call(right, key) || right[key] === undefined) return false;
      pending.push([left[key], right[key], depth + 1]);
    }
    for (const key in right) {
      if (Object.prototype.hasOwnProperty.call(right, key) && right[key] !== undefined && !(depth === 0 && key === skip)) keys--;
    }
    if (keys !== 0) return false;
  }
  return true;
}

/** What a strategy update changed: `the constraints`, `the rollout (10% → 25%)`, …; empty when nothing shows. */
function strategyChanges(before: Json | undefined, after: Json | undefined): string[] {
  if (before === undefined || after === undefined) return [];
  const parts: string[] = [];
  if (!same(before.constraints, after.constraints)) parts.push(l10n.t('the constraints'));
  const was = record(before.parameters) ?? {};
  const is = record(after.parameters) ?? {};
  if (!same(was.rollout, is.rollout)) {
    parts.push(l10n.t('the rollout ({0} → {1})', percent(was.rollout), percent(is.rollout)));
  }
  if (!same(was, is, 'rollout')) parts.push(l10n.t('the parameters'));
  if (!same(before.segments, after.segments)) parts.push(l10n.t('the segments'));
  if (!same(before.variants, after.variants)) parts.push(l10n.t('the variants'));
  if (!same(before.title, after.title)) parts.push(l10n.t('the title'));
  return parts;
}

function percent(value: unknown): string {
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : Number.NaN;
  return Number.isFinite(n) ? l10n.t('{0}%', oneDecimal(n)) : l10n.t('unset');
}

/** The event's environment, cleaned, or undefined for an event of no environment. */
function environmentOf(event: FeatureEvent): string | undefined {
  const env = text(event.environment);
  return env === undefined ? undefined : clean(env, MAX_NAME);
}

/** `“Staff e-mail addresses” in production`, or the name alone without an environment. */
function inEnv(name: string, env: string | undefined): string {
  return env === undefined ? name : l10n.t('{0} in {1}', name, env);
}

/** The phrase for an event type this file knows, or undefined. */
function knownPhrase(event: FeatureEvent): string | undefined {
  const data = record(event.data);
  const before = record(event.preData);
  const env = environmentOf(event);
  switch (event.type) {
    case 'feature-created':
      return l10n.t('created the flag');
    case 'feature-archived':
      return l10n.t('archived the flag');
    case 'feature-revived':
      return l10n.t('revived the flag');
    case 'feature-deleted':
      return l10n.t('deleted the flag');
    case 'feature-environment-enabled':
      return env === undefined ? l10n.t('enabled') : l10n.t('enabled in {0}', env);
    case 'feature-environment-disabled':
      return env === undefined ? l10n.t('disabled') : l10n.t('disabled in {0}', env);
    case 'feature-strategy-add':
      return env === undefined ? l10n.t('added strategy {0}', strategyName(data)) : l10n.t('added strategy {0} in {1}', strategyName(data), env);
    case 'feature-strategy-remove':
      return env === undefined ? l10n.t('removed strategy {0}', strategyName(before ?? data)) : l10n.t('removed strategy {0} from {1}', strategyName(before ?? data), env);
    case 'feature-strategy-update': {
      const name = strategyName(data ?? before);
      if (before && data && before.disabled !== data.disabled && typeof data.disabled === 'boolean') {
        return data.disabled ? l10n.t('turned off strategy {0}', inEnv(name, env)) : l10n.t('turned on strategy {0}', inEnv(name, env));
      }
      const changes = strategyChanges(before, data);
      return changes.length > 0
        ? l10n.t('changed {0} of {1}', joinValues(changes), inEnv(name, env))
        : l10n.t('changed strategy {0}', inEnv(name, env));
    }
    case 'feature-stale-on':
      return l10n.t('marked the flag stale');
    case 'feature-stale-off':
      return l10n.t('removed the stale mark');
    case 'feature-potentially-stale-on':
      return l10n.t('marked the flag potentially stale');
    case 'feature-completed':
      return l10n.t('marked the flag completed');
    case 'feature-uncompleted':
      return l10n.t('took back the completed mark');
    case 'feature-tagged':
      return l10n.t('tagged {0}', tagName(data));
    case 'feature-untagged':
      return l10n.t('removed tag {0}', tagName(before ?? data));
    case 'feature-updated':
    case 'feature-metadata-updated':
      return l10n.t('changed the description or type');
    case 'feature-environment-variants-updated':
      return env === undefined ? l10n.t('changed the variants') : l10n.t('changed the variants in {0}', env);
    case 'feature-variants-updated':
      return l10n.t('changed the variants');
    case 'feature-project-change': {
      const project = text(data?.newProject) ?? text(event.project);
      return project === undefined ? l10n.t('moved the flag to another project') : l10n.t('moved the flag to project {0}', clean(project, MAX_NAME));
    }
    case 'feature-dependency-added':
      return l10n.t('added a dependency on {0}', clean(text(data?.feature) ?? '?', MAX_NAME));
    case 'feature-dependency-removed':
    case 'feature-dependencies-removed':
      return l10n.t('removed a dependency');
    case 'feature-link-added':
      return l10n.t('added a link');
    case 'feature-link-updated':
      return l10n.t('changed a link');
    case 'feature-link-removed':
      return l10n.t('removed a link');
    case 'feature-favorited':
    case 'feature-unfavorited':
      return l10n.t('changed a favourite mark');
    default:
      return undefined;
  }
}

/** One change as the details document lists it: worded when it was read, its data not kept (a page may be megabytes). */
export interface HistoryEntry extends EventText {
  /** The server's id (ids grow with time): a page shifted by a newer change repeats none. */
  id?: number;
  /** The server's time as it wrote it, cleaned and cut, for when it does not parse (`at` undefined). */
  createdAt: string;
}

/** A change as the details document keeps it. */
export function historyEntry(event: FeatureEvent): HistoryEntry {
  const entry: HistoryEntry = { ...describeEvent(event), createdAt: clean(event.createdAt, MAX_TIME) };
  if (typeof event.id === 'number') entry.id = event.id;
  return entry;
}

/**
 * Who, what and when of one event. A type this file does not know reads as the server's `label` (`Flag
 * metadata updated`), cleaned, or as the type itself (`feature-impression-data-on`).
 */
export function describeEvent(event: FeatureEvent): EventText {
  const who = clean(text(event.createdBy) ?? l10n.t('someone'), MAX_WHO).trim() || l10n.t('someone');
  const phrase = knownPhrase(event) ?? clean(text(event.label) ?? event.type, MAX_NAME).trim();
  const what = clean(phrase === '' ? l10n.t('changed the flag') : phrase, MAX_WHAT);
  return { who, what, at: parseIsoUtc(event.createdAt) };
}
