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
import { compare } from '../../base/compare';

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

/** Equal as JSON (the server writes both sides the same way; a reordered object counts as a change, which is rare). */
function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
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
  const otherParameters = (p: Json) => Object.fromEntries(Object.entries(p).filter(([key]) => key !== 'rollout').sort(([a], [b]) => compare(a, b)));
  if (!same(otherParameters(was), otherParameters(is))) parts.push(l10n.t('the parameters'));
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
