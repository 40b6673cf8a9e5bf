import { readFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'

/** A static `import … from './x.js'` / `export … from` / bare `import './x.js'` in built ESM. */
const STATIC_IMPORT = /^\s*(?:import|export)\s(?!type\b)[^'";]*?from\s*['"]([^'"]+)['"]|^\s*import\s*['"]([^'"]+)['"]/gm
/** A top-level `require("x")` in built CommonJS (what the file loads when it loads). */
const STATIC_REQUIRE =
  /^(?:const|let|var)\s[^=]+=\s*(?:require_chunk\.\w+\()?require\(\s*['"]([^'"]+)['"]\s*\)|^require\(\s*['"]([^'"]+)['"]\s*\)/gm
/** A lazy `import('./x.js')` of one of our own files. */
export const DYNAMIC_IMPORT = /\bimport\(\s*['"](\.[^'"]+)['"]\s*\)/g

/**
 * The built files `entry` loads at once (itself included, absolute paths, in the order first reached) and the bare
 * packages they import (`node:` builtins aside): what Node loads with it. ESM `.js` and CommonJS `.cjs` alike.
 */
export function builtClosure(entry: string): { files: string[]; packages: Set<string> } {
  const files = new Set<string>()
  const packages = new Set<string>()
  const visit = (file: string) => {
    if (files.has(file)) return
    files.add(file)
    const pattern = file.endsWith('.cjs') ? STATIC_REQUIRE : STATIC_IMPORT
    for (const m of readFileSync(file, 'utf8').matchAll(pattern)) {
      const spec = (m[1] ?? m[2])!
      if (spec.startsWith('.')) visit(resolve(dirname(file), spec))
      else if (!spec.startsWith('node:')) packages.add(spec)
    }
  }
  visit(entry)
  return { files: [...files], packages }
}
