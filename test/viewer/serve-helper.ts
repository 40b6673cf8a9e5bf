import type { ChildProcess } from 'node:child_process'
import { finished, spawnCli } from '../helpers/cli-child.js'

export interface ServedView {
  url: string
  child: ChildProcess
  /** Everything the viewer printed on stderr so far. */
  stderr(): string
  /** SIGINT, then the exit code and output. */
  stop(): Promise<{ code: number | null; stdout: string; stderr: string }>
}

/** Starts `dataforge-evals view …` as a child and waits for the URL, its first line. */
export async function startView(argv: string[], cwd: string, env: Record<string, string> = {}): Promise<ServedView> {
  const child = spawnCli(['view', ...argv], cwd, env)
  const done = finished(child)
  let out = ''
  let err = ''
  child.stderr!.on('data', (d) => {
    err += d
  })
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      out += d
      const line = out.split('\n')
      if (line.length > 1) resolve(line[0]!)
    })
    void done.then((r) => reject(new Error(`view exited ${r.code} before printing its URL: ${r.stderr}`)))
  })
  return {
    url,
    child,
    stderr: () => err,
    stop: async () => {
      child.kill('SIGINT')
      const r = await done
      return { code: r.code, stdout: r.stdout, stderr: r.stderr }
    },
  }
}
