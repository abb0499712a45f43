import { unleash, useFlag, type UnleashContext } from './unleash';

// Rest the mouse on a flag name: the hover shows its state in each environment, its strategies and variants.

export function renderCheckout(userId: string, tenantId: string): string {
  const context: UnleashContext = { userId, tenantId };
  if (unleash.isEnabled('new-checkout-flow', context)) {
    const variant = unleash.getVariant('new-checkout-flow', context);
    return `one-page checkout (${variant.name})`;
  }
  return 'classic checkout';
}

// A typo: the hover says that no flag has this name.
export function expressButton(): boolean {
  return unleash.isEnabled('new-chekout-flow');
}

export function usePriceTag(): string {
  const experiment = useFlag('pricing-experiment');
  return experiment ? '9.99' : '10.00';
}

export function showExpressPay(context: UnleashContext): boolean {
  return unleash.isEnabled('checkout-express-pay', context) && !unleash.isEnabled('maintenance-mode');
}
