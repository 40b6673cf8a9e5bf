import type { Answer, GradeResult } from '../../core/answer.js'

/** A grader known to answer synchronously; assignable to `Grader`. */
export type SyncGrader = (answer: Answer) => GradeResult

/** A grader that always answers with a promise (the compositions); assignable to `Grader`. */
export type AsyncGrader = (answer: Answer) => Promise<GradeResult>
