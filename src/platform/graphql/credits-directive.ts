import { Directive } from 'type-graphql';

/**
 * The one place a paid field's price is declared: `@credits(price: N)` on a root field. It is composed
 * into the supergraph (`@composeDirective`), where the gateway's credit plugin and the REST layer read it.
 */
export const CREDITS_SPEC_URL = 'https://cipgate.dev/credits/v1.0';
export const CREDITS_DIRECTIVE_SDL = 'directive @credits(price: Int!) on FIELD_DEFINITION';

/** Declares the credit price of a root field. */
export const Price = (credits: number): MethodDecorator & PropertyDecorator => Directive(`@credits(price: ${credits})`);
