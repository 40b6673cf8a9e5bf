import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'

/** A relative import or re-export in TypeScript source, type-only ones included (they still couple two files). */
const RELATIVE_IMPORT =
  /^\s*(?:import|export)\s[^'";]*?from\s+['"](\.[^'"]+)['"]|^\s*import\s+['"](\.[^'"]+)['"]|\bimport\(\s*['"](\.[^'"]+)['"]\s*\)/gm

/** Every `.ts` file under `dir` (absolute paths). */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => join(dir, f))
}

/** File → the files it imports, for every source file under `srcDir` (paths relative to `srcDir`). */
export function importGraph(srcDir: string): Map<string, string[]> {
  const graph = new Map<string, string[]>()
  for (const file of sourceFiles(srcDir)) {
    const targets: string[] = []
    for (const m of readFileSync(file, 'utf8').matchAll(RELATIVE_IMPORT)) {
      const spec = (m[1] ?? m[2] ?? m[3])!
      targets.push(relative(srcDir, resolve(dirname(file), spec.replace(/\.js$/, '.ts'))))
    }
    graph.set(relative(srcDir, file), targets)
  }
  return graph
}

/** The cycles of a directed graph, one representative path per strongly connected component of two or more nodes. */
export function cycles(graph: Map<string, string[]>): string[][] {
  // Tarjan's algorithm, iterative enough for a few hundred nodes.
  let index = 0
  const indices = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const components: string[][] = []
  const visit = (v: string) => {
    indices.set(v, index)
    low.set(v, index++)
    stack.push(v)
    onStack.add(v)
    for (const w of graph.get(v) ?? []) {
      if (!indices.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v)!, low.get(w)!))
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, indices.get(w)!))
    }
    if (low.get(v) === indices.get(v)) {
      const component: string[] = []
      let w: string
      do {
        w = stack.pop()!
        onStack.delete(w)
        component.push(w)
      } while (w !== v)
      if (component.length > 1) components.push(component.sort())
    }
  }
  for (const v of graph.keys()) if (!indices.has(v)) visit(v)
  return components
}

/** The graph between top-level folders of src/ (a file directly in src/ is its own node). */
export function folderGraph(files: Map<string, string[]>): Map<string, string[]> {
  const folder = (file: string) => (file.includes('/') ? file.slice(0, file.indexOf('/')) : file)
  const graph = new Map<string, Set<string>>()
  for (const [file, targets] of files) {
    const from = folder(file)
    if (!graph.has(from)) graph.set(from, new Set())
    for (const target of targets) if (folder(target) !== from) graph.get(from)!.add(folder(target))
  }
  return new Map([...graph].map(([k, v]) => [k, [...v]]))
}
