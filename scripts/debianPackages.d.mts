// Types of debianPackages.mjs (plain JavaScript: CI runs it before `npm ci`), for the demo and the unit tests.
export interface Probe {
  command(name: string): boolean;
  file(path: string): boolean;
}
export interface DebianPackage {
  name: string;
  why: string;
  purposes: string[];
  present(probe: Probe): boolean;
}
export interface Host {
  root: boolean;
  aptGet: boolean;
  sudoWithoutPassword: boolean;
}
export type InstallPlan = { action: 'none' } | { action: 'stop'; message: string } | { action: 'install'; steps: string[][] };
export const PACKAGES: DebianPackage[];
export const systemProbe: Probe;
export function missingPackages(purposes: string[], probe: Probe): DebianPackage[];
export function installPlan(missing: DebianPackage[], host: Host): InstallPlan;
export function systemHost(probe?: Probe): Host;
export function stepRunner(output?: 'inherit' | number): (argv: string[]) => string | undefined;
export function ensurePackages(
  purposes: string[],
  options?: { probe?: Probe; host?: Host; run?: (argv: string[]) => string | undefined; log?: (line: string) => void },
): string | undefined;
