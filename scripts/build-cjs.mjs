// CommonJS build of the Jest entries and what they import (dist/cjs), for Jest's CommonJS runtime, which does
// not load ESM from node_modules. The only ESM-only syntax in that graph is `import.meta.url`, rewritten to the
// URL of the module's ESM twin (dist/cjs/x/y.js → dist/x/y.js). The ESM build is a bundle, so that file need not
// exist: what is computed from it walks up to the package root (the bundled datasets, package.json) or resolves
// packages from its folder (the agent host's jiti), as from the ESM chunks.
import { mkdirSync, writeFileSync } from 'node:fs'
import ts from 'typescript'

const entries = ['src/jest/index.ts', 'src/jest/setup.ts', 'src/jest/reporter.ts']
const config = ts.getParsedCommandLineOfConfigFile('tsconfig.build.json', {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} })
const options = {
  ...config.options,
  module: ts.ModuleKind.CommonJS,
  moduleResolution: ts.ModuleResolutionKind.Node10,
  outDir: 'dist/cjs',
  declaration: true,
  sourceMap: true,
  inlineSources: true,
}

function isImportMetaUrl(node) {
  return ts.isPropertyAccessExpression(node) && ts.isMetaProperty(node.expression) && node.expression.keywordToken === ts.SyntaxKind.ImportKeyword && node.name.text === 'url'
}

const rewriteImportMeta = (context) => (file) => {
  const visit = (node) => {
    if (isImportMetaUrl(node)) {
      const f = context.factory
      const req = (name) => f.createCallExpression(f.createIdentifier('require'), undefined, [f.createStringLiteral(name)])
      // __filename with its last `dist/cjs/` made `dist/`
      const twin = f.createCallExpression(f.createPropertyAccessExpression(f.createIdentifier('__filename'), 'replace'), undefined, [
        f.createRegularExpressionLiteral('/([\\\\/])dist[\\\\/]cjs[\\\\/](?!.*[\\\\/]dist[\\\\/]cjs[\\\\/])/'),
        f.createStringLiteral('$1dist$1'),
      ])
      const call = f.createCallExpression(f.createPropertyAccessExpression(req('node:url'), 'pathToFileURL'), undefined, [twin])
      return f.createPropertyAccessExpression(call, 'href')
    }
    return ts.visitEachChild(node, visit, context)
  }
  return ts.visitNode(file, visit)
}

const program = ts.createProgram(entries, options)
const result = program.emit(undefined, undefined, undefined, false, { before: [rewriteImportMeta] })
// Types are checked by the ESM build of the same sources; the declarations written here are the `require`
// condition's typings (a CommonJS project's TypeScript refuses the ESM ones). Here only what
// breaks the CommonJS output counts. TS1343 is import.meta under CommonJS, which the transformer rewrites.
const errors = [...program.getSyntacticDiagnostics(), ...program.getOptionsDiagnostics(), ...result.diagnostics].filter((d) => d.code !== 1343)
if (errors.length) {
  console.error(ts.formatDiagnosticsWithColorAndContext(errors, { getCanonicalFileName: (f) => f, getCurrentDirectory: ts.sys.getCurrentDirectory, getNewLine: () => '\n' }))
  process.exit(1)
}
mkdirSync('dist/cjs', { recursive: true })
writeFileSync('dist/cjs/package.json', '{ "type": "commonjs" }\n')
