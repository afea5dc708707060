import { isStorableText } from '@crm/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/app-error';

/** Deepest nesting any request may carry; real payloads (group controls, cascader trees) stay under 12. */
export const MAX_INPUT_DEPTH = 32;

/**
 * Refuses, for every route, input that no contract can hold and the database cannot store: nesting
 * deeper than MAX_INPUT_DEPTH (a recursive schema would overflow the stack) and strings or keys
 * with NUL or a lone surrogate (PostgreSQL refuses them). Iterative, so depth itself cannot hurt.
 */
export const checkInput = (root: unknown): AppError | null => {
  const stack: [unknown, number][] = [[root, 0]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop() as [unknown, number];
    if (typeof value === 'string') {
      if (!isStorableText(value)) return new AppError('INPUT_UNSTORABLE_TEXT');
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (Buffer.isBuffer(value)) continue;
    if (depth >= MAX_INPUT_DEPTH) return new AppError('INPUT_TOO_DEEP');
    if (Array.isArray(value)) {
      for (const v of value) stack.push([v, depth + 1]);
      continue;
    }
    for (const [k, v] of Object.entries(value)) {
      if (!isStorableText(k)) return new AppError('INPUT_UNSTORABLE_TEXT');
      stack.push([v, depth + 1]);
    }
  }
  return null;
};

const guard = async (req: FastifyRequest) => {
  const err = checkInput(req.params) ?? checkInput(req.query) ?? checkInput(req.body);
  if (err) throw err;
};

export const inputGuardPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('preValidation', guard);
});
