import type { Answer } from '../core/answer.js'
import type { DataAgent } from '../core/data-agent.js'

export type ScriptedAnswer = Answer | string | number | ((question: string, history: string[]) => Answer)

/**
 * PRIVILEGED test oracle for question evals: answers each question with the expected value it was given.
 * Use it to test graders, matchers and the harness; never as a result. Unknown questions get a refusal.
 */
export function createMockQaAgent(
  script: Record<string, ScriptedAnswer>,
  name = 'mock-qa',
): DataAgent & { privileged: true } {
  return {
    name,
    kind: 'oracle',
    privileged: true,
    session() {
      const history: string[] = []
      return {
        ask(question: string): Answer {
          history.push(question)
          const scripted = script[question]
          if (scripted === undefined)
            return { refused: true, text: `mock-qa has no scripted answer for: ${question}`, steps: 1 }
          if (typeof scripted === 'function') return scripted(question, [...history])
          if (typeof scripted === 'string') return { value: scripted, text: scripted, steps: 1 }
          if (typeof scripted === 'number') return { value: scripted, text: String(scripted), steps: 1 }
          return scripted
        },
      }
    },
  }
}
