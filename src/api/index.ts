export * from './baseUrl';
export * from './client';
export * from './dispatcher';
export * from './errors';
export { parseRetryAfter, redact, type HttpEvent } from './http';
export * from './schemas';
