/**
 * The core bundle (src/model/core.ts: the client, the export pipeline and the export file reader, with undici and
 * zod), loaded the first time something needs it. Under tsx (the tests) it is an ordinary module.
 */
export type Core = typeof import('../model/core');

export const loadCore = (): Promise<Core> => import('../model/core');
