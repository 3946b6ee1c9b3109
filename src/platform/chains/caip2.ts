/**
 * CAIP-2 chain ids (`namespace:reference`), as https://chainagnostic.org/CAIPs/caip-2 defines them, except
 * that namespaces may be up to 16 characters: the operator's Movement namespace `move-mvmt` has 9.
 */
const CAIP2 = /^([-a-z0-9]{3,16}):([-_a-zA-Z0-9*]{1,32})$/;

export interface Caip2 {
  namespace: string;
  reference: string;
}

/** Parses a CAIP-2 id, or returns null when it is not one. `*` is allowed as a wildcard reference. */
export function parseCaip2(id: string): Caip2 | null {
  const m = CAIP2.exec(id);
  if (!m) return null;
  const [, namespace, reference] = m as unknown as [string, string, string];
  if (reference.includes('*') && reference !== '*') return null;
  return { namespace, reference };
}
