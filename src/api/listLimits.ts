/** The bounds of one listing (listing.ts) and the message when a server's flags exceed them. */
import * as l10n from '@vscode/l10n';
import { ConfigError } from './errors';
import { INTAKE_BUDGET } from '../base/intakeBudget';

/**
 * Bounds of one listing: at most `pages` search pages for one query, at most `rows` flags in all (however they
 * arrive: one project's listing, search pages), within `ms`.
 */
export interface ListLimits {
  pages: number;
  rows: number;
  ms: number;
}

export const LIST_LIMITS: ListLimits = { pages: 1_000, rows: INTAKE_BUDGET.flags, ms: 120_000 };

/** More projects than this are not listed one request each: the search reads them. */
export const MAX_PROJECT_LISTINGS = 200;

/** The setting that narrows the listing; named when a listing is too long. */
const PROJECTS_SETTING = 'unleash.projects';

/** The listing holds more than `limit` flags: the projects setting is what narrows it. */
export function tooManyFlags(limit: number): ConfigError {
  return new ConfigError(PROJECTS_SETTING, l10n.t('takes in more than {0} flags, more than the extension lists. Name fewer projects to show.', limit.toLocaleString('en-US')));
}
