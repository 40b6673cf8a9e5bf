import type { Answer, GradeResult, Grader } from '../../core/answer.js'
import { InputError } from '../../core/errors.js'
import type { AsyncGrader } from './grader-types.js'

function checkParts(name: string, graders: Grader[]): void {
  // A composition of nothing would pass (allOf) or fail (anyOf) vacuously: always a bug in the eval.
  if (graders.length === 0) throw new InputError(`${name}() needs at least one grader`)
  graders.forEach((g, i) => {
    if (typeof g !== 'function') throw new InputError(`${name}(): argument ${i} is not a grader function`)
  })
}

async function gradeAll(graders: Grader[], answer: Answer): Promise<GradeResult[]> {
  // Every part runs (no short-circuit) so the detail shows each verdict.
  return Promise.all(graders.map(async (grade) => grade(answer)))
}

function listParts(parts: GradeResult[]): string {
  return parts.map((p, i) => `[${i + 1}] ${p.passed ? 'pass' : 'FAIL'}: ${p.detail}`).join(' | ')
}

/** Passes when every part passes. Score = share of parts that passed. */
export function allOf(...graders: Grader[]): AsyncGrader {
  checkParts('allOf', graders)
  return async (answer: Answer): Promise<GradeResult> => {
    const parts = await gradeAll(graders, answer)
    const passedCount = parts.filter((p) => p.passed).length
    return {
      passed: passedCount === parts.length,
      detail: `all of ${parts.length}: ${passedCount} passed — ${listParts(parts)}`,
      score: passedCount / parts.length,
      parts,
    }
  }
}

/** Passes when at least one part passes. */
export function anyOf(...graders: Grader[]): AsyncGrader {
  checkParts('anyOf', graders)
  return async (answer: Answer): Promise<GradeResult> => {
    const parts = await gradeAll(graders, answer)
    const passedCount = parts.filter((p) => p.passed).length
    return {
      passed: passedCount > 0,
      detail: `any of ${parts.length}: ${passedCount} passed — ${listParts(parts)}`,
      parts,
    }
  }
}
