import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const options = {
  module: 'ESNext',
  target: 'ES2023',
  experimentalDecorators: true,
  emitDecoratorMetadata: true,
  sourceMap: false,
  inlineSourceMap: true,
};

// Transpiled sources are kept by content hash: a multi-process test starts several servers, and
// transpiling every source file again in each took seconds of CPU per start.
const cacheDir = fileURLToPath(new URL('../../node_modules/.cache/cipgate-ts-loader/', import.meta.url));
const tsVersion = createRequire(import.meta.url)('typescript/package.json').version;
let ts;
let compilerOptions;

async function transpile(source, fileName) {
  const key = createHash('sha256')
    .update(`${tsVersion}\0${JSON.stringify(options)}\0${fileName}\0${source}`)
    .digest('hex');
  const cached = `${cacheDir}${key}.js`;
  if (existsSync(cached)) return readFileSync(cached, 'utf8');
  // TypeScript loads only on a cache miss: most starts need none of it.
  ts ??= (await import('typescript')).default;
  compilerOptions ??= ts.convertCompilerOptionsFromJson(options, '').options;
  const { outputText } = ts.transpileModule(source, { compilerOptions, fileName });
  mkdirSync(cacheDir, { recursive: true });
  // Written aside and renamed, so a process starting alongside never reads half a file.
  const partial = `${cached}.${process.pid}`;
  writeFileSync(partial, outputText);
  renameSync(partial, cached);
  return outputText;
}

export async function resolve(specifier, context, next) {
  if (
    specifier.endsWith('.js') &&
    context.parentURL?.startsWith('file:') &&
    !context.parentURL.includes('/node_modules/')
  ) {
    const candidate = new URL(specifier.replace(/\.js$/, '.ts'), context.parentURL);
    if (existsSync(fileURLToPath(candidate))) return next(candidate.href, context);
  }
  return next(specifier, context);
}

export async function load(url, context, next) {
  if (url.endsWith('.ts') && !url.includes('/node_modules/')) {
    const fileName = fileURLToPath(url);
    const source = await transpile(readFileSync(fileName, 'utf8'), fileName);
    return { format: 'module', source, shortCircuit: true };
  }
  return next(url, context);
}
