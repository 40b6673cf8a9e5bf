/** A promise the test opens by hand: a fake provider awaits it to answer slowly, for as long as the test wants. */
export function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void
  const opened = new Promise<void>((resolve) => {
    open = resolve
  })
  return { opened, open }
}

/** Waits until `condition` holds, checking every 10 ms, for at most `ms`: a bounded wait that returns as soon as it can. */
export async function until(condition: () => boolean, ms = 10_000): Promise<boolean> {
  const end = Date.now() + ms
  while (!condition()) {
    if (Date.now() >= end) return false
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  return true
}

/** What `startCalls` needs of an OpenAI client. */
interface ChatClient {
  chat: {
    completions: {
      create(body: { model: string; messages: Array<{ role: 'user'; content: string }> }): PromiseLike<unknown>
    }
  }
}

/**
 * Starts `n` chat calls at once without waiting for them; each outcome is 'ok', the HTTP status it failed with, or
 * null (the connection was cut). `settled()` says how many have ended so far.
 */
export function startCalls(client: ChatClient, n: number, extra: Record<string, unknown> = {}) {
  let settled = 0
  const outcomes = Array.from({ length: n }, (_, i) =>
    Promise.resolve(
      client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: `q${i}` }], ...extra }),
    )
      .then(
        () => 'ok' as const,
        (e: unknown) => (e as { status?: number }).status ?? null,
      )
      .finally(() => settled++),
  )
  return { outcomes, settled: () => settled }
}
