/**
 * The live FlagSource: an Unleash server through the Admin API client. The client is a true private field: the
 * store (which activate() hands to the in-editor tests) holds this source, and nothing may reach the token from it.
 */
import * as l10n from '@vscode/l10n';
import { baseUrlText } from '../api/baseUrl';
import type { UnleashClient } from '../api/client';
import { ListingFallbacks } from '../api/listingFallbacks';
import type { EventPage } from '../api/activityReader';
import type { ListingFailure } from '../api/listingTypes';
import type { Feature, FeatureSummary, Lifecycle, Segment } from '../api/schemas';
import type { FeatureMetricsRow } from '../api/activitySchemas';
import type { FlagSource } from '../model/store/flagSource';
import type { KnownProjects } from './knownProjects';

/** How the view, the status bar and hovers name a server: its host and path. */
export function serverLabel(baseUrl: URL): string {
  return baseUrl.host + baseUrl.pathname.replace(/\/$/, '');
}

export class ServerSource implements FlagSource {
  readonly kind = 'server' as const;
  readonly label: string;
  /** What the last listing could not check, for the view's message and the log. */
  listingNote: string | undefined;
  /** Projects the last listing could not read, for the tree. */
  failedProjects: readonly ListingFailure[] = [];
  readonly #client: UnleashClient;
  readonly #projects: string[];
  readonly #webUrlSetting: string;
  /**
   * The projects of the last listing, listed at once on the next one, which asks no project list: a refresh, and the
   * first listing of a window when an earlier window remembered them (`known`).
   */
  #knownProjects: string[];
  readonly #known: KnownProjects | undefined;
  readonly #server: string;
  /** Why fewer projects are listed than `unleash.projects` names (settingRules.ts capProjects), shown with every listing. */
  readonly #projectsNote: string | undefined;
  /** Projects whose listing this server answers with a 500: read through the search at once on the next listings. */
  readonly #fallbacks = new ListingFallbacks();

  constructor(client: UnleashClient, projects: string[], webUrlSetting: string, known?: KnownProjects, projectsNote?: string) {
    this.#client = client;
    this.#projects = projects;
    this.#projectsNote = projectsNote;
    this.#webUrlSetting = webUrlSetting;
    this.#known = known;
    this.#server = baseUrlText(client.baseUrl);
    this.#knownProjects = known?.get(this.#server) ?? [];
    this.label = serverLabel(client.baseUrl);
  }

  async listFeatures(signal?: AbortSignal, onRows?: (rows: FeatureSummary[]) => void): Promise<FeatureSummary[]> {
    const result = await this.#client.listing({ projects: this.#projects, knownProjects: this.#knownProjects, fallbacks: this.#fallbacks, signal, onRows });
    this.failedProjects = result.failed ?? [];
    // A project that could not be read is still known: the next listing tries it again at once.
    this.#knownProjects = [...new Set([...result.features.map((feature) => feature.project ?? 'default'), ...this.failedProjects.map((failure) => failure.project)])];
    if (!this.#projects.length) void this.#known?.remember(this.#server, this.#knownProjects);
    const unchecked = result.unchecked && l10n.t('The list may be incomplete: {0}. Refresh in a minute to check again.', result.unchecked);
    this.listingNote = [this.#projectsNote, unchecked].filter(Boolean).join(' ') || undefined;
    return result.features;
  }

  getFeature(project: string, name: string, signal?: AbortSignal): Promise<Feature> {
    return this.#client.getFeature(project, name, { signal });
  }

  getStrategySegments(strategyId: string, signal?: AbortSignal): Promise<Segment[]> {
    return this.#client.getStrategySegments(strategyId, { signal });
  }

  flagStages(project: string, name: string, signal?: AbortSignal): Promise<Lifecycle[]> {
    return this.#client.getStages(project, name, { signal });
  }

  findArchived(name: string, signal?: AbortSignal): Promise<FeatureSummary | undefined> {
    return this.#client.findArchivedFeature(name, { signal });
  }

  flagHistory(project: string, name: string, page: { limit: number; offset: number }, signal?: AbortSignal): Promise<EventPage> {
    return this.#client.featureEvents(name, { project, ...page }, { signal });
  }

  flagUsage(name: string, hours: number, signal?: AbortSignal): Promise<FeatureMetricsRow[]> {
    return this.#client.featureUsage(name, hours, { signal });
  }

  async listEnvironments(signal?: AbortSignal): Promise<string[]> {
    return (await this.#client.listEnvironments({ signal })).map((environment) => environment.name);
  }

  webUrl(project: string, name: string): string {
    const base = (this.#webUrlSetting || baseUrlText(this.#client.baseUrl)).replace(/\/+$/, '');
    return `${base}/projects/${encodeURIComponent(project)}/features/${encodeURIComponent(name)}`;
  }
}
