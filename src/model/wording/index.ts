/**
 * Wording: pure functions that turn flag data into the short plain text people read, shared by the tree view
 * (labels, descriptions, tooltips) and the hovers. Every result is single-line, free of control and bidi
 * characters, and bounded (MAX_LABEL for one-liners, MAX_DETAIL for details). Nothing is escaped: callers that
 * render markdown escape it themselves. No 'vscode' here.
 */
export {
  MAX_LABEL, MAX_DETAIL, MAX_VALUE, MAX_LIST_ITEMS,
  singleLine, truncate, clean, visibleText, showValue, formatList, oneDecimal, parseIsoUtc, utcDate, utcDateTime,
} from './text';
export type { ListOptions } from './text';
export {
  andMore, constraintCount, flagCount, parameterCount, segmentCount, strategyCount, tagCount, variantCount,
} from './counts';
export type { ListedKind } from './counts';
export { describeConstraint, constraintParts } from './constraints';
export type { ConstraintParts } from './constraints';
export {
  MAX_PARAMETERS, parametersInLabel, strategyDisplayName, describeStrategy, strategyTitle, strategyBadges, describeParameters,
} from './strategies';
export { MAX_PAYLOAD, weightPercent, describePayload, describeOverride, describeVariant } from './variants';
export { isJson, jsonPreview, MAX_INDENT_ADDED, MAX_JSON_DEPTH, MAX_JSON_TO_INDENT, prettyJson } from './json';
export type { VariantText } from './variants';
export {
  ENABLED_MARK, DISABLED_MARK, flagName, invalidNameMark, quotedFlagName, describeSegment, describeDependency, describeLifecycle, lifecycleStage, describeEnvironmentState,
  environmentStrip, describeLastSeen,
} from './flags';
export type { SegmentText } from './flags';
export {
  STRIP_BUDGET, shortEnvironmentName, environmentInitials, shortEnvironmentNames, compactStrip, environmentStates,
} from './environments';
