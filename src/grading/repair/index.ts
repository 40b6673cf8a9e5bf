export { type Comparator, exactComparator, rahaComparator, comparatorByName } from './comparators.js'
export { prf } from './prf.js'
export { gradeRepair, gradeAgainstTruth, type GradeRepairOptions } from './grade.js'
