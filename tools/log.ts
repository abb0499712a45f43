/** How the tools report progress: a line at a time, durations in seconds as measured. */
export type Log = (line: string) => void;

export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}
