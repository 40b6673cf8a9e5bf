import { completion, type FakeHandler } from './fake-provider.js'

/**
 * A data agent's model on a loopback chat server: for each question it first calls `sql` counting the rows of
 * the `events` table, then answers with the count the engine returned. It never sees more than the prompt.
 */
export const sqlThenAnswer: FakeHandler = async (req) => {
  const messages = (req.body as { messages: Array<{ role: string; content: string | null }> }).messages
  const lastUserAt = messages.map((m) => m.role).lastIndexOf('user')
  const tool = messages.slice(lastUserAt).find((m) => m.role === 'tool')
  const call = (name: string, args: Record<string, unknown>) =>
    completion(null, {
      toolCalls: [{ id: `c${messages.length}`, name, arguments: JSON.stringify(args) }],
      promptTokens: 50,
      completionTokens: 5,
    })
  if (!tool) return call('sql', { query: 'SELECT count(*) AS n FROM events' })
  const rows = (JSON.parse(tool.content!) as { rows: unknown[][] }).rows
  return call('answer', { value: JSON.stringify(rows[0]![0]), text: 'rows counted' })
}
