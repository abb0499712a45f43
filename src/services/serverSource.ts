/** The live FlagSource: an Unleash server through the Admin API client. */
import { baseUrlText } from '../api/baseUrl';
import type { UnleashClient } from '../api/client';
import type { Feature, FeatureSummary, Segment } from '../api/schemas';
import type { FlagSource } from '../model/flagSource';

export class ServerSource implements FlagSource {
  readonly kind = 'server' as const;
  readonly label: string;

  constructor(
    readonly client: UnleashClient,
    private readonly projects: string[],
    private readonly webUrlSetting: string,
  ) {
    this.label = client.baseUrl.host + client.baseUrl.pathname.replace(/\/$/, '');
  }

  listFeatures(signal?: AbortSignal): Promise<FeatureSummary[]> {
    return this.client.listFeatures({ projects: this.projects, signal });
  }

  getFeature(project: string, name: string, signal?: AbortSignal): Promise<Feature> {
    return this.client.getFeature(project, name, { signal });
  }

  getStrategySegments(strategyId: string, signal?: AbortSignal): Promise<Segment[]> {
    return this.client.getStrategySegments(strategyId, { signal });
  }

  findArchived(name: string, signal?: AbortSignal): Promise<FeatureSummary | undefined> {
    return this.client.findArchivedFeature(name, { signal });
  }

  async listEnvironments(signal?: AbortSignal): Promise<string[]> {
    return (await this.client.listEnvironments({ signal })).map((environment) => environment.name);
  }

  webUrl(project: string, name: string): string {
    const base = (this.webUrlSetting || baseUrlText(this.client.baseUrl)).replace(/\/+$/, '');
    return `${base}/projects/${encodeURIComponent(project)}/features/${encodeURIComponent(name)}`;
  }
}
