/**
 * How code may spell a flag name under the configured name transforms: the inverse of `applyTransform`, checked by
 * applying it (so only spellings that really map back to the name are searched).
 */
import { applyTransform, type NameTransform } from './nameTransforms';

const MAX_SPELLINGS = 20;

/** Candidate texts that `transform` maps to `name` (not yet checked). */
function inverse(name: string, transform: NameTransform): string[] {
  switch (transform.kind) {
    case 'prefix':
      return [transform.value + name];
    case 'suffix':
      return [name + transform.value];
    case 'screamingSnakeToKebab':
      return [name.toUpperCase().replace(/-/g, '_')];
    case 'snakeToKebab':
      return [name.replace(/-/g, '_')];
    case 'camelToKebab': {
      const parts = name.split('-');
      const pascal = parts.map((part) => part.charAt(0).toUpperCase() + part.slice(1)).join('');
      return [pascal.charAt(0).toLowerCase() + pascal.slice(1), pascal];
    }
    case 'chain': {
      // Each step can double the candidates (camelToKebab has two spellings): kept distinct and at most
      // MAX_SPELLINGS, a chain of any length costs its length, never 2^length.
      let current = [name];
      for (const step of [...transform.transforms].reverse()) {
        current = [...new Set(current.flatMap((text) => inverse(text, step)))].slice(0, MAX_SPELLINGS);
      }
      return current;
    }
  }
}

/** The name itself, then every spelling a transform maps back to it, without repeats (at most 20). */
export function flagSpellings(name: string, transforms: readonly NameTransform[]): string[] {
  const spellings = [name];
  for (const transform of transforms) {
    for (const text of inverse(name, transform)) {
      if (spellings.length >= MAX_SPELLINGS) return spellings;
      if (!spellings.includes(text) && applyTransform(text, transform) === name) spellings.push(text);
    }
  }
  return spellings;
}
