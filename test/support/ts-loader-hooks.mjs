import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const options = {
  module: ts.ModuleKind.ESNext,
  target: ts.ScriptTarget.ES2023,
  experimentalDecorators: true,
  emitDecoratorMetadata: true,
  sourceMap: false,
  inlineSourceMap: true,
};

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
    const source = readFileSync(fileURLToPath(url), 'utf8');
    const { outputText } = ts.transpileModule(source, { compilerOptions: options, fileName: fileURLToPath(url) });
    return { format: 'module', source: outputText, shortCircuit: true };
  }
  return next(url, context);
}
