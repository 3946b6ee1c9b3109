import type { FastifyRequest } from 'fastify';

/** An API key anywhere in a text. The `cgk_<8 hex>` prefix is public and stays, so operators can tell keys apart. */
const API_KEY = /(cgk_[0-9a-f]{8})_[A-Za-z0-9_-]{43}/g;
const HAS_API_KEY = /cgk_[0-9a-f]{8}_[A-Za-z0-9_-]{43}/;
/** Query parameters whose value is a credential whatever it looks like (`x-api-key`, `apikey`, `token`, …). */
const SECRET_NAME = /key|token|secret|passw|auth|credential|session|signature/i;

export const redactKeys = (text: string): string => text.replace(API_KEY, '$1_[redacted]');

const decoded = (text: string): string => {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
};

/** A request URL fit for a log line: credential-like query values and anything shaped like a key removed. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  const rawPath = q === -1 ? url : url.slice(0, q);
  // A key can hide behind percent-encoding (`cgk%5F…`): judge the decoded text, log the redacted decoded one.
  const path = HAS_API_KEY.test(decoded(rawPath)) ? redactKeys(decoded(rawPath)) : rawPath;
  if (q === -1) return path;
  const query = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq === -1) return redactKeys(pair);
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      return SECRET_NAME.test(decoded(name)) || HAS_API_KEY.test(decoded(value)) ? `${name}=[redacted]` : pair;
    });
  return `${path}?${query.join('&')}`;
}

/** Fastify's own `req` log serializer, with the URL redacted. */
export const requestSerializer = (req: FastifyRequest) => ({
  method: req.method,
  url: redactUrl(req.url),
  version: [req.headers?.['accept-version']].flat()[0],
  host: req.host,
  remoteAddress: req.ip,
  remotePort: req.socket?.remotePort,
});

/** Header paths pino blanks in any logged object, in case a header bag is ever logged. */
export const redactedPaths = [
  'req.headers["x-api-key"]',
  'req.headers.authorization',
  'req.headers.cookie',
  'headers["x-api-key"]',
  'headers.authorization',
  'headers.cookie',
  'apiKey',
];
