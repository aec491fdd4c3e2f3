// What a JavaScript, TypeScript or Vue file imports, read with TypeScript's own parser (not a regular expression, so a
// specifier in a comment or a string is not taken for an import): `import … from`, `export … from`, `import()`,
// `require()`, `require.resolve()` and `import.meta.resolve()`, type-only imports included (a type comes from a
// package too). A call whose specifier is not a string literal cannot be followed; it is listed apart, with its
// place, for the test to review.
import { readFileSync, readdirSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { join, relative } from 'node:path';

import ts from 'typescript';

export interface ModuleImport {
  file: string;
  line: number;
  specifier: string;
}

export interface FileImports {
  imports: ModuleImport[];
  // import(x), require(x) with x not a literal: `file:line` and the call's text.
  unresolvable: { at: string; call: string }[];
}

const SCRIPT = /\.(?:[cm]?[jt]s|vue)$/;

// The files under `dir` (relative to it) that hold code, leaving out the folders named in `skip` (relative paths).
export function codeFiles(dir: string, skip: readonly string[] = []): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && SCRIPT.test(entry.name) && !entry.name.endsWith('.d.ts'))
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .filter((file) => !skip.some((folder) => file === folder || file.startsWith(`${folder}/`)))
    .sort();
}

// The <script> blocks of a single-file component; the template and style import nothing.
function scriptText(file: string, text: string): string {
  if (!file.endsWith('.vue')) return text;
  return [...text.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]).join('\n');
}

const literal = (node: ts.Node | undefined): string | null => (node && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) ? node.text : null);

const isImportMeta = (node: ts.Node): boolean => ts.isMetaProperty(node) && node.keywordToken === ts.SyntaxKind.ImportKeyword;

// A require of this file's own: `require` (this code base names it so: `const require = createRequire(import.meta.url)`)
// or `createRequire(import.meta.url)` itself. A require made for another package's folder resolves that package's
// dependencies, not this file's, and is not followed.
function isOwnRequire(node: ts.Expression): boolean {
  if (ts.isIdentifier(node)) return node.text === 'require';
  if (!ts.isCallExpression(node) || !ts.isIdentifier(node.expression) || node.expression.text !== 'createRequire') return false;
  const from = node.arguments[0];
  return from !== undefined && ts.isPropertyAccessExpression(from) && from.name.text === 'url' && isImportMeta(from.expression);
}

// `require(…)`, `require.resolve(…)`, `import.meta.resolve(…)`, or `import(…)`.
function isLoaderCall(callee: ts.Expression): boolean {
  if (callee.kind === ts.SyntaxKind.ImportKeyword) return true;
  if (ts.isPropertyAccessExpression(callee) && callee.name.text === 'resolve') return isImportMeta(callee.expression) || isOwnRequire(callee.expression);
  return isOwnRequire(callee);
}

export function fileImports(root: string, file: string): FileImports {
  const path = join(root, file);
  const text = scriptText(file, readFileSync(path, 'utf8'));
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, file.endsWith('.vue') ? ts.ScriptKind.TS : undefined);
  const result: FileImports = { imports: [], unresolvable: [] };
  const lineOf = (node: ts.Node): number => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
  const visit = (node: ts.Node): void => {
    let specifier: string | null = null;
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) specifier = literal(node.moduleSpecifier);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) specifier = literal(node.argument.literal);
    else if (ts.isCallExpression(node) && isLoaderCall(node.expression)) {
      specifier = literal(node.arguments[0]);
      if (specifier === null) result.unresolvable.push({ at: `${file}:${lineOf(node)}`, call: node.getText(source) });
    }
    if (specifier !== null) result.imports.push({ file, line: lineOf(node), specifier });
    ts.forEachChild(node, visit);
  };
  visit(source);
  return result;
}

export function importsOf(root: string, files: readonly string[]): FileImports {
  const all = files.map((file) => fileImports(root, file));
  return { imports: all.flatMap((f) => f.imports), unresolvable: all.flatMap((f) => f.unresolvable) };
}

// The package a specifier names ('zod/v4/core' → 'zod', '@napi-rs/canvas' → '@napi-rs/canvas'), or null for a
// relative or absolute path, a URL, or one of Node's own modules.
export function packageOf(specifier: string): string | null {
  if (/^(?:\.{1,2}\/|\/|[a-z][a-z0-9+.-]*:)/i.test(specifier) || specifier === '.' || specifier === '..') return null;
  if (isBuiltin(specifier)) return null;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? null);
}
