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
      if (bindings && ts.isNamespaceImport(bindings))
        for (const n of accessedNames(bindings.name, source) ?? ['*']) out.uses.push([from, n])
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
        for (const n of dynamicImportNames(node) ?? ['*']) out.uses.push([from, n])
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

/**
 * The names taken from a dynamic `import('./x.js')` where they can be read, else null: destructured
 * (`const { a } = await import(…)`, `.then(({ a }) => …)`, `Promise.all([import(…)]).then(([{ a }]) => …)`), or
 * read off the module (`(await import(…)).a`, `const m = await import(…)` or `.then((m) => …)` then only `m.a`).
 */
function dynamicImportNames(call: ts.CallExpression): string[] | null {
  let node: ts.Node = call
  let slot: number | null = null
  const climb = () => {
    for (;;) {
      const p = node.parent
      if (ts.isAwaitExpression(p) || ts.isParenthesizedExpression(p)) node = p
      else if (ts.isConditionalExpression(p) && p.condition !== node) node = p
      else return
    }
  }
  climb()
  // Promise.all([import(a), import(b)]): this import's slot in the array the `.then` callback receives.
  if (ts.isArrayLiteralExpression(node.parent) && isPromiseAll(node.parent.parent)) {
    slot = node.parent.elements.indexOf(node as ts.Expression)
    node = node.parent.parent
    climb()
  }
  const parent = node.parent
  if (ts.isVariableDeclaration(parent)) {
    const scope = ts.findAncestor(parent, (n) => ts.isBlock(n) || ts.isSourceFile(n))!
    if (slot === null) return bindingTaken(parent.name, scope)
    const element = ts.isArrayBindingPattern(parent.name) ? parent.name.elements[slot] : undefined
    return element && ts.isBindingElement(element) ? bindingTaken(element.name, scope) : element ? [] : null
  }
  if (ts.isPropertyAccessExpression(parent) && parent.expression === node) {
    if (parent.name.text !== 'then') return slot === null ? [parent.name.text] : null
    const then = parent.parent
    const callback = ts.isCallExpression(then) && then.expression === parent ? then.arguments[0] : undefined
    if (!callback || !(ts.isArrowFunction(callback) || ts.isFunctionExpression(callback))) return null
    const param = callback.parameters[0]?.name
    if (!param) return []
    if (slot === null) return bindingTaken(param, callback)
    const element = ts.isArrayBindingPattern(param) ? param.elements[slot] : undefined
    return element && ts.isBindingElement(element) ? bindingTaken(element.name, callback) : element ? [] : null
  }
  return null
}

/** An identifier that declares or names a property, or only tests its value for truth. */
function namesOrTests(node: ts.Identifier): boolean {
  const p = node.parent
  if ((ts.isPropertyAccessExpression(p) || ts.isPropertyAssignment(p)) && p.name === node) return true
  if ((ts.isParameter(p) || ts.isVariableDeclaration(p) || ts.isBindingElement(p)) && p.name === node) return true
  if (ts.isPrefixUnaryExpression(p) && p.operator === ts.SyntaxKind.ExclamationToken) return true
  return (ts.isIfStatement(p) && p.expression === node) || (ts.isConditionalExpression(p) && p.condition === node)
}

function isPromiseAll(node: ts.Node): node is ts.CallExpression {
  return ts.isCallExpression(node) && node.expression.getText() === 'Promise.all'
}

/** The names a binding takes from a module: `{ a, b }` → [a, b]; an identifier `m` → what `scope` reads off it. */
function bindingTaken(name: ts.BindingName, scope: ts.Node): string[] | null {
  if (ts.isObjectBindingPattern(name))
    return name.elements.map((el) => ((el.propertyName ?? el.name) as ts.Identifier).text)
  return ts.isIdentifier(name) ? accessedNames(name, scope) : null
}

/**
 * Every `m.a` read off the binding `m` within `scope`; null when `m` is used whole (passed on, returned). Another
 * binding of the same name, a property of that name and a test of `m` (`!m`, `if (m)`) read nothing.
 */
function accessedNames(binding: ts.Identifier, scope: ts.Node): string[] | null {
  const names = new Set<string>()
  let whole = false
  const visit = (node: ts.Node) => {
    if (ts.isIdentifier(node) && node.text === binding.text && node !== binding) {
      const p = node.parent
      if (ts.isPropertyAccessExpression(p) && p.expression === node) names.add(p.name.text)
      else if (!namesOrTests(node)) whole = true
    }
    ts.forEachChild(node, visit)
  }
  visit(scope)
  return whole ? null : [...names]
}

/**
 * Each export of src/ that nothing uses: no other file of src/ or of `userDirs` (the tests) imports it, directly
 * or through a re-export that is itself used, and no public entry exports it. A name only its own file uses is
 * not exported.
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

/** Where `file`'s export `name` is declared, as `file: name`, through re-exports; null when `file` has no such export. */
function originOf(
  files: Map<string, FileExports>,
  file: string,
  name: string,
  seen = new Set<string>(),
): string | null {
  const f = files.get(file)
  if (!f || seen.has(file)) return null
  seen.add(file)
  if (f.own.has(name)) return `${file}: ${name}`
  const via = f.reexports.get(name)
  if (via) return originOf(files, via[0], via[1], seen)
  if (name === 'default') return null
  for (const star of f.stars) {
    const origin = originOf(files, star, name, seen)
    if (origin) return origin
  }
  return null
}

/** Every name `file` exports, `export * from` included. */
function exportNames(files: Map<string, FileExports>, file: string, seen = new Set<string>()): Set<string> {
  const f = files.get(file)
  if (!f || seen.has(file)) return new Set()
  seen.add(file)
  const names = new Set([...f.own, ...f.reexports.keys()])
  for (const star of f.stars) for (const n of exportNames(files, star, seen)) if (n !== 'default') names.add(n)
  return names
}

/** The top-level folder of src/ a file is in; null for a file directly in src/. */
const folderOf = (file: string) => (file.includes('/') ? file.slice(0, file.indexOf('/')) : null)

/**
 * Each folder's `index.ts` against what the other folders take from it. `undeclared`: a name a file takes from a
 * file of another folder (imports, re-exports, dynamic imports where the names can be read; types too) that the
 * folder's index.ts does not export. `untaken`: a name an index.ts exports that no other folder, public entry or
 * file of `userDirs` (the tests) takes, from the index or from the file. Sorted lines naming src/ files.
 */
export function folderSurfaces(
  srcDir: string,
  userDirs: readonly string[] = [],
): { undeclared: string[]; untaken: string[] } {
  const files = new Map(sourceFiles(srcDir).map((f) => [relative(srcDir, f), read(srcDir, relative(srcDir, f))]))
  const users = userDirs.flatMap((dir) => sourceFiles(dir)).map((f) => read(srcDir, relative(srcDir, f)))
  const indexOf = (folder: string) => `${folder}/index.ts`
  const undeclared = new Set<string>()
  const taken = new Set<string>()
  const take = (file: string, name: string) => {
    for (const n of name === '*' ? exportNames(files, file) : [name]) {
      const origin = originOf(files, file, n)
      if (origin) taken.add(origin)
    }
  }
  for (const [file, f] of files) {
    for (const [target, name] of f.uses) {
      const folder = folderOf(target)
      if (!folder || folder === folderOf(file) || !files.has(target)) continue
      take(target, name)
      const index = indexOf(folder)
      if (name === '*' || target === index) continue
      const origin = originOf(files, target, name)
      if (origin && originOf(files, index, name) !== origin)
        undeclared.add(`src/${file} takes ${name} from src/${target}: src/${index} does not export it`)
    }
  }
  for (const f of users) for (const [target, name] of f.uses) take(target, name)
  for (const entry of PUBLIC_ENTRIES) take(entry, '*')
  const untaken: string[] = []
  for (const folder of new Set([...files.keys()].map(folderOf))) {
    if (!folder || !files.has(indexOf(folder))) continue
    for (const name of exportNames(files, indexOf(folder))) {
      const origin = originOf(files, indexOf(folder), name)
      if (origin && !taken.has(origin))
        untaken.push(
          `src/${indexOf(folder)} exports ${name} (src/${origin.slice(0, origin.indexOf(':'))}), and no other folder, public entry or test takes it`,
        )
    }
  }
  return { undeclared: [...undeclared].sort(), untaken: untaken.sort() }
}
