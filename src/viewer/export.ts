import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { type SiteOptions, ViewerSite } from './site.js'

/**
 * Writes the viewer's pages as a static site that works from file://: OUT/index.html and OUT/runs/N.html, with
 * relative links and no reload. Never expected values: an export is a set of files people share.
 */
export async function exportViewer(
  options: Omit<SiteOptions, 'showExpected'>,
  out: string,
): Promise<{ pages: number; site: ViewerSite }> {
  const site = new ViewerSite({ ...options, showExpected: false }, 'export')
  await site.load()
  await mkdir(join(out, 'runs'), { recursive: true })
  await writeFile(join(out, 'index.html'), site.indexHtml())
  const count = site.runCount()
  const WIDTH = 16
  for (let start = 0; start < count; start += WIDTH) {
    const batch: Promise<void>[] = []
    for (let n = start; n < Math.min(count, start + WIDTH); n++)
      batch.push(site.runHtml(n).then((html) => writeFile(join(out, 'runs', `${n}.html`), html)))
    await Promise.all(batch)
  }
  return { pages: count + 1, site }
}
