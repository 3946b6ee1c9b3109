import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * A subgraph served as its own process must not answer anyone but the gateway: credits are charged only
 * there, so a direct caller would get paid fields free. The gateway signs every subgraph fetch with a
 * shared secret; the token names the partner the gateway authenticated, so the subgraph needs no API key.
 * Short-lived, so a token seen in transit is of little use.
 */
export const GATEWAY_TOKEN_HEADER = 'x-cipgate-gateway';

export const GATEWAY_TOKEN_TTL_SECONDS = 60;

export interface GatewayClaims {
  /** The partner whose key the gateway verified, or null for a keyless caller. */
  partnerId: string | null;
  /** The verified key, so the subgraph sees the same partner shape as the gateway. */
  keyId: string | null;
  requestId: string;
  /** Expiry, in seconds since the epoch. */
  exp: number;
}

const mac = (secret: string, payload: string): Buffer => createHmac('sha256', secret).update(payload).digest();

export function signGatewayToken(secret: string, claims: Omit<GatewayClaims, 'exp'>, now: number = Date.now()): string {
  const body: GatewayClaims = { ...claims, exp: Math.floor(now / 1000) + GATEWAY_TOKEN_TTL_SECONDS };
  const payload = Buffer.from(JSON.stringify(body)).toString('base64url');
  return `${payload}.${mac(secret, payload).toString('base64url')}`;
}

const nullableString = (value: unknown): value is string | null => value === null || typeof value === 'string';

/** The token's claims if it was signed with this secret and has not expired; null for anything else. */
export function verifyGatewayToken(
  secret: string,
  token: string | undefined,
  now: number = Date.now(),
): GatewayClaims | null {
  if (!token || token.length > 2048) return null;
  const [payload, signature, extra] = token.split('.');
  if (!payload || !signature || extra !== undefined) return null;
  const expected = mac(secret, payload);
  const presented = Buffer.from(signature, 'base64url');
  if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) return null;
  let claims: Partial<GatewayClaims>;
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (
    typeof claims !== 'object' ||
    claims === null ||
    !nullableString(claims.partnerId) ||
    !nullableString(claims.keyId) ||
    typeof claims.requestId !== 'string' ||
    typeof claims.exp !== 'number' ||
    claims.exp * 1000 <= now
  ) {
    return null;
  }
  return { partnerId: claims.partnerId, keyId: claims.keyId, requestId: claims.requestId, exp: claims.exp };
}
