/** Team naming conventions that map text in source code to a flag name. */

/**
 * A team naming convention that maps text found in source code to a flag name.
 * - `prefix`: strip a constant prefix (`FLAG_new_checkout` → `new_checkout`); no match if absent.
 * - `suffix`: strip a constant suffix (`new-checkout_FLAG` → `new-checkout`); no match if absent.
 * - `screamingSnakeToKebab`: `NEW_CHECKOUT_FLOW` → `new-checkout-flow`.
 * - `snakeToKebab`: `new_checkout_flow` → `new-checkout-flow`.
 * - `camelToKebab`: `newCheckoutFlow` / `NewCheckoutFlow` → `new-checkout-flow`
 *   (acronyms: `enableHTTPCache` → `enable-http-cache`).
 * - `chain`: apply several transforms in sequence, e.g. prefix `FEATURE_` then
 *   `screamingSnakeToKebab` maps `FEATURE_NEW_CHECKOUT` → `new-checkout`.
 */
export type NameTransform =
  | { kind: 'prefix'; value: string }
  | { kind: 'suffix'; value: string }
  | { kind: 'screamingSnakeToKebab' }
  | { kind: 'snakeToKebab' }
  | { kind: 'camelToKebab' }
  | { kind: 'chain'; transforms: NameTransform[] };

const SCREAMING_SNAKE = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$/;
const LOWER_SNAKE = /^[a-z0-9]+(?:_[a-z0-9]+)+$/;
const CAMEL = /^[A-Za-z][A-Za-z0-9]*$/;
const HAS_UPPER = /[A-Z]/;
const HAS_LOWER = /[a-z]/;

/** Apply one naming convention; undefined when it does not apply to `text`. */
export function applyTransform(text: string, transform: NameTransform): string | undefined {
  switch (transform.kind) {
    case 'prefix':
      return transform.value.length > 0 &&
        text.length > transform.value.length &&
        text.startsWith(transform.value)
        ? text.slice(transform.value.length)
        : undefined;
    case 'suffix':
      return transform.value.length > 0 &&
        text.length > transform.value.length &&
        text.endsWith(transform.value)
        ? text.slice(0, text.length - transform.value.length)
        : undefined;
    case 'screamingSnakeToKebab':
      return SCREAMING_SNAKE.test(text) ? text.toLowerCase().replace(/_/g, '-') : undefined;
    case 'snakeToKebab':
      return LOWER_SNAKE.test(text) ? text.replace(/_/g, '-') : undefined;
    case 'camelToKebab':
      if (!CAMEL.test(text) || !HAS_UPPER.test(text) || !HAS_LOWER.test(text)) return undefined;
      return text
        .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
        .replace(/([A-Z]+)([A-Z][a-z])/g, '$1-$2')
        .toLowerCase();
    case 'chain': {
      let current: string | undefined = text;
      for (const t of transform.transforms) {
        current = applyTransform(current, t);
        if (current === undefined) return undefined;
      }
      return current;
    }
    default: {
      const never: never = transform;
      return never;
    }
  }
}
