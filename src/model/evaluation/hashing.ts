/**
 * The SDKs' buckets: MurmurHash3 x86 32-bit of `groupId:identifier` with `murmurhash3js`, as the Node SDK
 * (unleash-client) hashes it, so a user lands in the same bucket here as in that SDK (docs/evaluation.md says where
 * SDKs that hash UTF-8 bytes differ: identifiers outside Latin-1).
 */
import { x86 } from 'murmurhash3js';

/** Seed of the strategies' rollout hash. */
const STRATEGY_SEED = 0;
/** Seed of the variants' hash (the SDKs' constant). */
const VARIANT_SEED = 86028157;

/** 1 to 100: where `identifier` falls in a rollout of `groupId`. */
export function rolloutBucket(identifier: string, groupId: string): number {
  return (x86.hash32(`${groupId}:${identifier}`, STRATEGY_SEED) % 100) + 1;
}

/** 1 to `totalWeight`: where `identifier` falls among variants of that total weight. */
export function variantBucket(identifier: string, groupId: string, totalWeight: number): number {
  return (x86.hash32(`${groupId}:${identifier}`, VARIANT_SEED) % totalWeight) + 1;
}
