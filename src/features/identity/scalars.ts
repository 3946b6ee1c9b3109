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
    // A valid Date (what resolvers answer) needs no check: written at once, without Date's own formatting.
    if (value instanceof Date && !Number.isNaN(value.getTime())) return isoTimestamp(value.getTime());
    const parsed = GraphQLDateTime.serialize(value) as Date | string | number;
    return isoTimestamp((parsed instanceof Date ? parsed : new Date(parsed)).getTime());
  },
});

/**
 * Texts already normalized, each to its URL string form (and that form to itself). A search page
 * serialises its provider's logo and site on every result, and parsing them each time is a visible share
 * of a search's work. Bounded: emptied when full, as a page's avatars are many,
 * and only short texts are kept (an avatar may be a `data:` URL of many kB).
 */
const normalized = new Map<string, string>();
const MAX_NORMALIZED = 1024;
const MAX_REMEMBERED_LENGTH = 512;

/** `new URL(text).toString()`, remembered; throws as `new URL` does for a text that is not a URL. */
function normalizeUrl(text: string): string {
  const known = normalized.get(text);
  if (known !== undefined) return known;
  const url = new URL(text).toString();
  if (text.length > MAX_REMEMBERED_LENGTH || url.length > MAX_REMEMBERED_LENGTH) return url;
  if (normalized.size >= MAX_NORMALIZED) normalized.clear();
  normalized.set(text, url);
  normalized.set(url, url);
  return url;
}

/** graphql-scalars' URL scalar; serialises to the URL's string form (WHATWG-normalized). */
export const UrlScalar = new GraphQLScalarType({
  ...GraphQLURL.toConfig(),
  serialize(value: unknown): string | null {
    if (value === null) return value;
    return normalizeUrl((value as { toString(): string }).toString());
  },
});

/** A value as the URL scalar will serialise it, or null when it is not a URL (never an error at serialisation). */
export function asUrl(value: string | null | undefined): string | null {
  if (!value) return null;
  try {
    return normalizeUrl(value);
  } catch {
    return null;
  }
}
