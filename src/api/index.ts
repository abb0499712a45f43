export * from './baseUrl';
export * from './client';
export * from './dispatcher';
export * from './proxy';
export * from './systemCertificates';
export * from './errors';
export { LIST_LIMITS, type ListLimits, type ListingResult } from './listing';
export { parseRetryAfter, redact, type HttpEvent } from './http';
export * from './schemas';
