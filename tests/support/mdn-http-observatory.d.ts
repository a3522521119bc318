// The parts of @mdn/mdn-http-observatory (plain JavaScript, no type declarations) the Observatory test uses.
declare module '@mdn/mdn-http-observatory' {
  export interface ObservatoryTestResult {
    pass: boolean
    result: string
    scoreModifier: number
  }
  export interface ObservatoryScan {
    scan: { grade: string; score: number; testsPassed: number; testsFailed: number; testsQuantity: number }
    /** Each test's result by its name, e.g. 'content-security-policy'. */
    tests: Record<string, ObservatoryTestResult>
  }
  /** Scans `host` (a host name, optionally with :port) over http and https, as the Observatory's site does. */
  export function scan(host: string): Promise<ObservatoryScan>
}

declare module '@mdn/mdn-http-observatory/src/grader/grader.js' {
  export function getScoreModifier(expectation: string): number
  export function getGradeForScore(score: number): { score: number; grade: string }
}

declare module '@mdn/mdn-http-observatory/src/grader/charts.js' {
  export const MINIMUM_SCORE_FOR_EXTRA_CREDIT: number
}
