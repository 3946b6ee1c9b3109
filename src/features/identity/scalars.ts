import { GraphQLScalarType } from 'graphql';
import { GraphQLDateTime, GraphQLURL } from 'graphql-scalars';
import { isoTimestamp } from '../../platform/iso-timestamp.js';

/**
 * graphql-scalars' DateTime, but always serialised as an ISO-8601 UTC string: its own serialiser hands
 * Date objects through, which an in-process gateway passes on unchanged to the REST layer's serialiser.
 */
export const DateTimeScalar = new GraphQLScalarType({
  ...GraphQLDateTime.toConfig(),
  description: 'An instant as an ISO-8601 UTC timestamp, e.g. `2031-05-04T03:02:01.000Z`.',
  serialize(value: unknown): string {
    // A valid Date (what resolvers answer) needs no check: written at once, without V8's formatter.
    if (value instanceof Date && !Number.isNaN(value.getTime())) return isoTimestamp(value.getTime());
    const parsed = GraphQLDateTime.serialize(value) as Date | string | number;
    return isoTimestamp((parsed instanceof Date ? parsed : new Date(parsed)).getTime());
  },
});

/** graphql-scalars' URL scalar; serialises to the URL's string form (WHATWG-normalized). */
export const UrlScalar = GraphQLURL;

/** A value as the URL scalar will serialise it, or null when it is not a URL (never an error at serialisation). */
export function asUrl(value: string | null | undefined): string | null {
  if (!value) return null;
  try {
    return new URL(value).toString();
  } catch {
    return null;
  }
}
