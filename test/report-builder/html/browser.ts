import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type BrowserContext, chromium } from 'playwright-core'

export const CHROMIUM = '/usr/bin/chromium'

/** Flags that keep Debian's Chromium from calling home on this machine's closed network. */
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

/** Debian's headless Chromium with a fresh profile; `close()` removes the profile too. */
export async function launchChromium(
  options: { javaScriptEnabled?: boolean } = {},
): Promise<{ context: BrowserContext; close: () => Promise<void> }> {
  if (!existsSync(CHROMIUM))
    throw new Error(`${CHROMIUM} is missing: install it with apt-get install -y chromium (.ci/run does)`)
  const profile = await mkdtemp(join(tmpdir(), 'dataforge-chromium-'))
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    viewport: { width: 1280, height: 900 },
    javaScriptEnabled: options.javaScriptEnabled ?? true,
  })
  return {
    context,
    close: async () => {
      await context.close()
      await rm(profile, { recursive: true, force: true })
    },
  }
}
