import { unleash } from './unleash';

// `old-banner` is archived in Unleash: the hover and the Problems panel say so, and SDKs serve its default value.
export function showSpringBanner(): boolean {
  return unleash.isEnabled('old-banner');
}
