/**
 * A FlagSource built on first need: a server's (its client loads the core bundle and reads the system's
 * certificates) or the export files' (read and checked by the core bundle). Until something asks it for flags it
 * holds only what the connection knew without building: the kind, a label, the number of files. So a window that
 * never needs the flags builds nothing. Once built, every answer is the built source's.
 */
import * as l10n from '@vscode/l10n';
import type { ListingFailure } from '../../api/listingTypes';
import type { Feature, FeatureSummary, Segment } from '../../api/schemas';
import type { FlagSource } from './flagSource';

/** What is known before building: shown by the status bar while the store is idle. */
interface KnownBeforeBuilding {
  kind: FlagSource['kind'];
  /** Made when first shown (a list of file names is formatted with Intl, which costs its first use). */
  label: () => string;
  fileCount?: number;
}

export class DeferredSource implements FlagSource {
  readonly kind: FlagSource['kind'];
  // True private fields: the store, which activate() hands to the in-editor tests, holds this source, and nothing
  // may reach the client (nor the token) from it.
  readonly #known: KnownBeforeBuilding;
  readonly #build: () => Promise<FlagSource>;
  #building: Promise<FlagSource> | undefined;
  #built: FlagSource | undefined;
  #label: string | undefined;
  /** A server's history, usage and stage lists (export files have none: absent, as on an offline source). */
  readonly flagHistory?: FlagSource['flagHistory'];
  readonly flagUsage?: FlagSource['flagUsage'];
  readonly flagStages?: FlagSource['flagStages'];

  constructor(known: KnownBeforeBuilding, build: () => Promise<FlagSource>) {
    this.kind = known.kind;
    this.#known = known;
    this.#build = build;
    if (known.kind === 'server') {
      this.flagHistory = async (project, name, page, signal) => (await this.builtWith('flagHistory')).flagHistory(project, name, page, signal);
      this.flagUsage = async (name, hours, signal) => (await this.builtWith('flagUsage')).flagUsage(name, hours, signal);
      this.flagStages = async (project, name, signal) => (await this.builtWith('flagStages')).flagStages(project, name, signal);
    }
  }

  /** The built source, which must offer `member` (a server source does). */
  private async builtWith<K extends 'flagHistory' | 'flagUsage' | 'flagStages'>(member: K): Promise<Required<Pick<FlagSource, K>>> {
    const source = await this.built();
    if (!source[member]) throw new Error(l10n.t('This flag source cannot read a flag\'s history or usage.'));
    return source as unknown as Required<Pick<FlagSource, K>>;
  }

  get label(): string {
    return this.#built?.label ?? (this.#label ??= this.#known.label());
  }

  get fileCount(): number | undefined {
    return this.#built ? this.#built.fileCount : this.#known.fileCount;
  }

  get listingNote(): string | undefined {
    return this.#built?.listingNote;
  }

  get failedProjects(): readonly ListingFailure[] | undefined {
    return this.#built?.failedProjects;
  }

  /** The source, built by the first caller and shared; a build that fails is forgotten, so the next need tries again. */
  built(): Promise<FlagSource> {
    this.#building ??= this.#build().then(
      (source) => (this.#built = source),
      (error: unknown) => {
        this.#building = undefined;
        throw error;
      },
    );
    return this.#building;
  }

  async listFeatures(signal?: AbortSignal, onRows?: (rows: FeatureSummary[]) => void): Promise<FeatureSummary[]> {
    return (await this.built()).listFeatures(signal, onRows);
  }

  async getFeature(project: string, name: string, signal?: AbortSignal): Promise<Feature> {
    return (await this.built()).getFeature(project, name, signal);
  }

  async getStrategySegments(strategyId: string, signal?: AbortSignal): Promise<Segment[]> {
    return (await this.built()).getStrategySegments(strategyId, signal);
  }

  async listEnvironments(signal?: AbortSignal): Promise<string[]> {
    return (await this.built()).listEnvironments(signal);
  }

  /** Undefined where the built source cannot tell (export files). */
  async findArchived(name: string, signal?: AbortSignal): Promise<FeatureSummary | undefined> {
    const source = await this.built();
    return source.findArchived?.(name, signal);
  }

  /** Asked for the rows of a listing, so the source is built by then; undefined before. */
  webUrl(project: string, name: string): string | undefined {
    return this.#built?.webUrl?.(project, name);
  }
}
