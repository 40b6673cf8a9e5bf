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
