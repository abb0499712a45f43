/** Locale-independent string order (UTF-16 code units), the same on every machine: names, projects, export keys. */
export function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
