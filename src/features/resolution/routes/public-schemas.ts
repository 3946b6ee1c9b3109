import { ADDRESS_RULE } from '../registry/address.js';

/** Bounds of the /api/public routes' parameters (their types come from the GraphQL schema), and the error body. */

/** Largest batch of the two batch calls; beyond it a request is a 400 naming the limit. */
export const PUBLIC_MAX_BATCH = 1000;

export const caip2IdSchema = { minLength: 1, maxLength: 64 } as const;
export const nameSchema = { minLength: 1, maxLength: 255 } as const;
/**
 * Documented, not checked here: the resolver checks every address once, precisely, and names a bad
 * batch item by its index. Loose length bounds here cost a large batch time (Ajv counts each string's
 * code points, twice) and caught nothing the resolver would not.
 */
export const addressSchema = { description: `A Movement address: ${ADDRESS_RULE}.` } as const;

export const publicErrorSchema = {
  type: 'object',
  required: ['message'],
  properties: { message: { type: 'string' } },
};

export const errorResponses = { 400: publicErrorSchema, 404: publicErrorSchema };
