/**
 * A stand-in for the Unleash SDKs, so that this demo has no dependencies. In a real app these come from
 * `unleash-client` (Node) and `@unleash/proxy-client-react` (React); the calls look the same.
 */
export interface UnleashContext {
  userId?: string;
  tenantId?: string;
  properties?: Record<string, string>;
}

export interface Variant {
  name: string;
  enabled: boolean;
  payload?: { type: string; value: string };
}

export const unleash = {
  isEnabled(name: string, context: UnleashContext = {}): boolean {
    return name.length > 0 && context !== undefined;
  },
  getVariant(name: string, context: UnleashContext = {}): Variant {
    return { name: 'disabled', enabled: name.length > 0 && context !== undefined };
  },
};

export function useFlag(name: string): boolean {
  return unleash.isEnabled(name);
}
