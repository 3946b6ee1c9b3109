/**
 * Names of the remote subgraphs whose `/healthz` (beside their GraphQL URL) does not answer 200 within
 * the timeout: a gateway that cannot reach one cannot answer the operations it serves, so it is not ready.
 */
export async function unreachableSubgraphs(urls: Record<string, string>, timeoutMs = 1000): Promise<string[]> {
  const checks = Object.entries(urls).map(async ([name, url]) => {
    try {
      const res = await fetch(new URL('/healthz', url), { signal: AbortSignal.timeout(timeoutMs) });
      await res.body?.cancel();
      return res.ok ? null : name;
    } catch {
      return name;
    }
  });
  return (await Promise.all(checks)).filter((name): name is string => name !== null);
}
