/**
 * A context made ready for many evaluations: the time it stands for and every derived value (a version, an address,
 * a number, a lower-cased text) parsed once per field, however many flags read it.
 */
import { Address4, Address6 } from 'ip-address';
import type { RE2JS } from 're2js';
import parseVersion from 'semver/functions/parse';
import type SemVer from 'semver/classes/semver';
import { contextValue, type EvaluationContext } from './context';

/** An address as the CIDR checks read it (ip-address's objects, with the form they compare). */
export type ParsedAddress = { readonly family: 4; readonly address: Address4; readonly form: string } | { readonly family: 6; readonly address: Address6; readonly form: string };

/** Parses an address or range the way the SDKs accept one; undefined when neither family takes it. */
export function parseAddress(text: string): ParsedAddress | undefined {
  if (Address4.isValid(text)) {
    const address = new Address4(text);
    return { family: 4, address, form: address.correctForm() };
  }
  if (Address6.isValid(text)) {
    const address = new Address6(text);
    return { family: 6, address, form: address.correctForm() };
  }
  return undefined;
}

export class PreparedContext {
  /** The time DATE_* constraints compare: the context's currentTime when it has one, else `now`. */
  readonly timeMs: number;
  private readonly versions = new Map<string, SemVer | null>();
  private readonly addresses = new Map<string, ParsedAddress | null>();
  private readonly lowered = new Map<string, string | undefined>();
  private readonly matches = new Map<RE2JS, Map<string, boolean>>();

  constructor(
    readonly context: EvaluationContext,
    now: number,
  ) {
    this.timeMs = context.currentTime ? Date.parse(context.currentTime) : now;
  }

  value(name: string): string | undefined {
    return contextValue(this.context, name);
  }

  /** The field lower-cased as the SDKs do for caseInsensitive (`toLocaleLowerCase`). */
  lowerValue(name: string): string | undefined {
    if (!this.lowered.has(name)) this.lowered.set(name, this.value(name)?.toLocaleLowerCase());
    return this.lowered.get(name);
  }

  /** The field as a version, or null when the SDKs would refuse it (not semver, or written with a leading `v`). */
  version(name: string): SemVer | null {
    let version = this.versions.get(name);
    if (version === undefined) {
      const text = this.value(name);
      version = text && !text.startsWith('v') ? parseVersion(text) : null;
      this.versions.set(name, version);
    }
    return version;
  }

  /** Whether `pattern` finds a match in the field (false without one): each pattern runs once per field. */
  found(pattern: RE2JS, name: string): boolean {
    let byField = this.matches.get(pattern);
    if (!byField) this.matches.set(pattern, (byField = new Map()));
    let found = byField.get(name);
    if (found === undefined) {
      const text = this.value(name);
      found = text !== undefined && pattern.matcher(text).find();
      byField.set(name, found);
    }
    return found;
  }

  /** The field as an IPv4 or IPv6 address (or range), or null. */
  address(name: string): ParsedAddress | null {
    let address = this.addresses.get(name);
    if (address === undefined) {
      const text = this.value(name);
      address = (text === undefined ? undefined : parseAddress(text)) ?? null;
      this.addresses.set(name, address);
    }
    return address;
  }
}
