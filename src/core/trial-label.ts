/**
 * A trial as a person reads it: counted from 1 (records keep the 0-based index), `trial 2/3` when the number of
 * trials is known, else `trial 2`. Every message and progress line names trials through this.
 */
export function trialLabel(trial: number, trials?: number | null): string {
  return trials ? `trial ${trial + 1}/${trials}` : `trial ${trial + 1}`
}
