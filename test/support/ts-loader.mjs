// Lets a child process run the TypeScript sources directly (decorator metadata included), so
// multi-process tests exercise the same code as the rest of the suite without a build step.
import { enableCompileCache, register } from 'node:module';

// V8's code cache for the dependencies, as the server itself uses (src/main.ts): most of a child's
// start is compiling them.
enableCompileCache();
register('./ts-loader-hooks.mjs', import.meta.url);
