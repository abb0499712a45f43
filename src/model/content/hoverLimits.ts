/** The caps of a hover, so that a hostile catalog cannot build a huge one. */

/** Each cap is a number of items or of characters before escaping. */
export const HOVER_LIMITS = {
  /** Projects shown for one name (a name can exist in several). */
  projects: 5,
  description: 300,
  environments: 12,
  /** Strategies named in one environment's cell; the count is always exact. */
  strategiesPerEnvironment: 4,
  /** Characters of one environment's strategy summary. */
  strategyCell: 200,
  /** Variant lines (feature, environment and strategy variants together). */
  variants: 8,
  variantLine: 200,
  parents: 5,
  children: 10,
  tags: 10,
  links: 5,
  /** Past this length (after escaping) no further project is added. */
  hoverLength: 30_000,
} as const;
