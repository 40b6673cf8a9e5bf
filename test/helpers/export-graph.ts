import { readFileSync } from 'node:fs'
import { dirname, relative, resolve } from 'node:path'
import ts from 'typescript'
import { sourceFiles } from './source-graph.js'

/** What one file of src/ exports and what it takes from the others, read with TypeScript's own parser. */
interface FileExports {
  /** Names the file declares and exports itself. */
  own: Set<string>
  /** Exported name → [file, name there] it re-exports. */
  reexports: Map<string, [string, string]>
  /** Files whose every export this file re-exports (`export * from`). */
  stars: string[]
  /** [file, name] pairs this file imports; name `*` is every export of that file. */
  uses: [string, string][]
}

/** The package's public entries (tsdown.config.ts): everything they export is the package's surface. */
export const PUBLIC_ENTRIES = [
  'index.ts',
  'vitest/index.ts',
  'vitest/setup.ts',
  'reporter/vitest/index.ts',
  'jest/index.ts',
  'jest/setup.ts',
  'reporter/jest/index.ts',
  'testing/index.ts',
  'cli/bin.ts',
]

function read(srcDir: string, file: string): FileExports {
  const text = readFileSync(resolve(srcDir, file), 'utf8')
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true)
  const target = (spec: string) =>
    relative(srcDir, resolve(dirname(resolve(srcDir, file)), spec.replace(/\.js$/, '.ts')))
  const out: FileExports = { own: new Set(), reexports: new Map(), stars: [], uses: [] }
  const exported = (node: ts.Node) =>
    ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword)
  const visit = (node: ts.Node) => {
    if (
      ts.isImportDeclaration(node) &&
      ts.isStringLiteral(node.moduleSpecifier) &&
      node.moduleSpecifier.text.startsWith('.')
    ) {
      const from = target(node.moduleSpecifier.text)
      const clause = node.importClause
      if (clause?.name) out.uses.push([from, 'default'])
      const bindings = clause?.namedBindings
      if (bindings && ts.isNamespaceImport(bindings)) out.uses.push([from, '*'])
      if (bindings && ts.isNamedImports(bindings))
        for (const el of bindings.elements) out.uses.push([from, (el.propertyName ?? el.name).text])
      if (!clause) out.uses.push([from, '*'])
    } else if (ts.isExportDeclaration(node)) {
      const spec = node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier) ? node.moduleSpecifier.text : null
      const from = spec?.startsWith('.') ? target(spec) : null
      if (!node.exportClause) {
        if (from) out.stars.push(from)
      } else if (ts.isNamedExports(node.exportClause)) {
        for (const el of node.exportClause.elements) {
          const name = el.name.text
          if (from) out.reexports.set(name, [from, (el.propertyName ?? el.name).text])
          else out.own.add(name)
        }
      }
    } else if (ts.isExportAssignment(node)) {
      out.own.add('default')
    } else if (exported(node)) {
      const isDefault = (ts.getModifiers(node as ts.HasModifiers) ?? []).some(
        (m) => m.kind === ts.SyntaxKind.DefaultKeyword,
      )
      if (isDefault) out.own.add('default')
      else if (ts.isVariableStatement(node)) {
        for (const decl of node.declarationList.declarations)
          for (const name of bindingNames(decl.name)) out.own.add(name)
      } else if ('name' in node && node.name && ts.isIdentifier(node.name as ts.Node))
        out.own.add((node.name as ts.Identifier).text)
    }
    // `import('./x.js')`, awaited and destructured or not, and `typeof import('./x.js').name` in types.
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const arg = node.arguments[0]
      if (arg && ts.isStringLiteral(arg) && arg.text.startsWith('.')) {
        const from = target(arg.text)
        const names = destructuredNames(node)
        if (names) for (const n of names) out.uses.push([from, n])
        else out.uses.push([from, '*'])
      }
    }
    if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      const spec = node.argument.literal.text
      if (spec.startsWith('.'))
        out.uses.push([target(spec), node.qualifier && ts.isIdentifier(node.qualifier) ? node.qualifier.text : '*'])
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return out
}

function bindingNames(name: ts.BindingName): string[] {
  if (ts.isIdentifier(name)) return [name.text]
  return name.elements.flatMap((el) => (ts.isBindingElement(el) ? bindingNames(el.name) : []))
}

/** `const { a, b } = await import('./x.js')` → [a, b]; `(await import('./x.js')).a` → [a]; anything else: null. */
function destructuredNames(call: ts.CallExpression): string[] | null {
  let node: ts.Node = call
  while (ts.isAwaitExpression(node.parent) || ts.isParenthesizedExpression(node.parent)) node = node.parent
  const parent = node.parent
  if (ts.isVariableDeclaration(parent) && ts.isObjectBindingPattern(parent.name)) {
    return parent.name.elements.map((el) => ((el.propertyName ?? el.name) as ts.Identifier).text)
  }
  if (ts.isPropertyAccessExpression(parent) && parent.expression === node) return [parent.name.text]
  return null
}

/**
 * Each export of src/ that nothing uses: no other file of src/ or of `userDirs` (the tests) imports it, directly
 * or through a re-export that is itself used, its own file never names it again, and no public entry exports it.
 * A folder's `index.ts` states the folder's surface: its re-exports are not listed, but what they re-export is
 * held to the same rule. `file: name` lines, sorted.
 */
export function unusedExports(srcDir: string, userDirs: readonly string[] = []): string[] {
  const files = new Map(sourceFiles(srcDir).map((f) => [relative(srcDir, f), read(srcDir, relative(srcDir, f))]))
  const users = userDirs.flatMap((dir) => sourceFiles(dir)).map((f) => read(srcDir, relative(srcDir, f)))
  const live = new Set<string>()
  const pending: [string, string][] = []
  const mark = (file: string, name: string) => {
    const key = `${file}: ${name}`
    if (live.has(key) || !files.has(file)) return
    live.add(key)
    pending.push([file, name])
  }
  for (const entry of PUBLIC_ENTRIES) mark(entry, '*')
  for (const f of [...files.values(), ...users]) for (const [file, name] of f.uses) mark(file, name)
  for (const [file, f] of files) {
    const text = readFileSync(resolve(srcDir, file), 'utf8')
    for (const name of f.own) if ((text.match(new RegExp(`\\b${name}\\b`, 'g')) ?? []).length > 1) mark(file, name)
  }
  while (pending.length) {
    const [file, name] = pending.pop()!
    const f = files.get(file)!
    const names = name === '*' ? [...f.own, ...f.reexports.keys()] : [name]
    for (const n of names) {
      mark(file, n)
      const via = f.reexports.get(n)
      if (via) mark(via[0], via[1])
    }
    if (name === '*') for (const star of f.stars) mark(star, '*')
    else if (!f.own.has(name) && !f.reexports.has(name)) for (const star of f.stars) mark(star, name)
  }
  const unused: string[] = []
  for (const [file, f] of files) {
    const surface = file.endsWith('index.ts') && !PUBLIC_ENTRIES.includes(file)
    for (const name of f.own) if (!live.has(`${file}: ${name}`)) unused.push(`${file}: ${name}`)
    for (const [name, [from, there]] of f.reexports) {
      const used = live.has(`${file}: ${name}`) || (surface && live.has(`${from}: ${there}`))
      if (!used) unused.push(`${file}: ${name}${surface ? ` (re-exported from ${from})` : ''}`)
    }
  }
  return unused.sort()
}
