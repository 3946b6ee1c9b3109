/** Bounds of the /api/public routes' parameters (their types come from the GraphQL schema), and the error body. */

/** Largest batch of the two batch calls; beyond it a request is a 400 naming the limit. */
export const PUBLIC_MAX_BATCH = 1000;

export const caip2IdSchema = { minLength: 1, maxLength: 64 } as const;
export const nameSchema = { minLength: 1, maxLength: 255 } as const;
// Loose here; the resolver says precisely what a Movement address is.
export const addressSchema = { minLength: 1, maxLength: 130 } as const;

export const publicErrorSchema = {
  type: 'object',
  required: ['message'],
  properties: { message: { type: 'string' } },
};

export const errorResponses = { 400: publicErrorSchema, 404: publicErrorSchema };
