/** How the benchmarks print figures and tables (markdown, as the README quotes them). */

export const ms = (value: number): string =>
  !Number.isFinite(value) ? '—' : value >= 1000 ? `${(value / 1000).toFixed(2)} s` : value >= 100 ? `${Math.round(value)} ms` : `${value.toFixed(1)} ms`;
export const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
export const times = (ratio: number): string => `${ratio.toFixed(2)}×`;
export const n = (value: number): string => value.toLocaleString('en-US');

/** A markdown table, each column as wide as its widest cell. */
export function markdownTable(head: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(head), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}
