import { afterAll, beforeAll } from 'vitest';
import type { BuildOptions } from '../../src/app.js';
import { startTestApp, type TestApp } from './app.js';
import { handle } from './handle.js';

/**
 * A test app for the enclosing describe: started (then `setup`, e.g. an import, run on it) before its
 * tests, stopped after them. The returned handle forwards to that app, so it can be captured at
 * describe time and used in tests and helpers as the app itself.
 */
export function useTestApp(
  env: Record<string, string> = {},
  { setup, ...build }: Omit<BuildOptions, 'logger'> & { setup?: (app: TestApp) => Promise<void> } = {},
): TestApp {
  let started: TestApp | undefined;
  beforeAll(async () => {
    started = await startTestApp(env, undefined, build);
    await setup?.(started);
  });
  afterAll(() => started?.stop());
  return handle(() => started, 'the test app');
}
