/** The message of the assertion `fn` makes, which must fail. */
export function failureOf(fn: () => unknown): string {
  try {
    fn()
  } catch (error) {
    return (error as Error).message
  }
  throw new Error('expected the assertion to fail')
}
