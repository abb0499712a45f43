/** The wording API; the implementation lives in ./wording/ (see ./wording/index.ts). */
export * from './wording/index';
