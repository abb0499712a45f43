/** The callee names the extension knows without settings, across Unleash SDKs and OpenFeature (sdkCalls.ts reads them). */

/**
 * Callee names (the identifier just before `(`) whose first string-literal argument
 * is a flag name, across Unleash SDKs and OpenFeature. Ruby-style names ending in
 * `?` are matched with their `?`; `isEnabled?.(` (JS optional call) matches `isEnabled`.
 */
export const DEFAULT_SDK_CALLS: readonly string[] = Object.freeze([
  // Unleash JS/TS (node, browser proxy client), Java, Kotlin, PHP, Swift, Android, Flutter
  'isEnabled',
  'getVariant',
  'isDisabled',
  // Unleash React / Vue / Svelte
  'useFlag',
  'useFlagStatus',
  'useVariant',
  // Python, Rust, Ruby
  'is_enabled',
  'get_variant',
  'is_enabled?',
  'enabled?',
  'is_disabled?',
  'disabled?',
  // Go, C#
  'IsEnabled',
  'GetVariant',
  'IsEnabledAsync',
  'GetVariantAsync',
  // OpenFeature JS / Java / Kotlin
  'getBooleanValue',
  'getStringValue',
  'getNumberValue',
  'getIntegerValue',
  'getDoubleValue',
  'getObjectValue',
  'getBooleanDetails',
  'getStringDetails',
  'getNumberDetails',
  'getIntegerDetails',
  'getDoubleDetails',
  'getObjectDetails',
  // OpenFeature React
  'useBooleanFlagValue',
  'useStringFlagValue',
  'useNumberFlagValue',
  'useObjectFlagValue',
  'useBooleanFlagDetails',
  'useStringFlagDetails',
  'useNumberFlagDetails',
  'useObjectFlagDetails',
  'useSuspenseFlag',
  // OpenFeature Python
  'get_boolean_value',
  'get_string_value',
  'get_integer_value',
  'get_float_value',
  'get_object_value',
  'get_boolean_details',
  'get_string_details',
  'get_integer_details',
  'get_float_details',
  'get_object_details',
  // OpenFeature Go (flag key after a context argument, see CONTEXT_ARG)
  'BooleanValue',
  'StringValue',
  'IntValue',
  'FloatValue',
  'ObjectValue',
  'BooleanValueDetails',
  'StringValueDetails',
  'IntValueDetails',
  'FloatValueDetails',
  'ObjectValueDetails',
  // OpenFeature .NET
  'GetBooleanValueAsync',
  'GetStringValueAsync',
  'GetIntegerValueAsync',
  'GetDoubleValueAsync',
  'GetObjectValueAsync',
  'GetBooleanDetailsAsync',
  'GetStringDetailsAsync',
  'GetIntegerDetailsAsync',
  'GetDoubleDetailsAsync',
  'GetObjectDetailsAsync',
  // OpenFeature Ruby / PHP
  'fetch_boolean_value',
  'fetch_string_value',
  'fetch_number_value',
  'fetch_integer_value',
  'fetch_float_value',
  'fetch_object_value',
  'fetch_boolean_details',
]);
