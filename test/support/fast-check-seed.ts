// Property runs inside `npm test` use one fixed seed, so CI gives the same answer for the same code;
// the million-input fuzz scripts (scripts/fuzz*.mjs) are where new inputs are explored.
// FC_SEED=<n> npm test replays or explores another seed.
import fc from 'fast-check';

const seed = Number(process.env.FC_SEED ?? 20261122);
if (!Number.isSafeInteger(seed)) throw new Error(`FC_SEED must be an integer, got "${process.env.FC_SEED}"`);
fc.configureGlobal({ seed });
