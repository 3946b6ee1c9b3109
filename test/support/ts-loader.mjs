// Lets a child process run the TypeScript sources directly (decorator metadata included), so
// multi-process tests exercise the same code as the rest of the suite without a build step.
import { register } from 'node:module';

register('./ts-loader-hooks.mjs', import.meta.url);
