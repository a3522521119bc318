/** What a request to no known route is counted as, so scanners probing random paths add no new series. */
export const UNMATCHED_ROUTE = 'unmatched'

type Segment = { kind: 'literal'; value: string } | { kind: 'param' } | { kind: 'rest' }

function segmentsOf(path: string): string[] {
  return path.split('/').filter((segment) => segment !== '')
}

function parse(pattern: string): Segment[] {
  return segmentsOf(pattern).map((segment): Segment => {
    if (segment === '*') return { kind: 'rest' }
    if (segment.startsWith(':')) return { kind: 'param' }
    return { kind: 'literal', value: segment }
  })
}

/** How many points a match earns: literal segments beat parameters, which beat a trailing `*`. */
function score(pattern: Segment[], path: string[]): number | undefined {
  let points = 0
  // Indexed, not entries(): it runs for every pattern on every request, and entries() allocates an array per segment.
  for (let index = 0; index < pattern.length; index += 1) {
    const segment = pattern[index]!
    if (segment.kind === 'rest') return points
    const part = path[index]
    if (part === undefined) return undefined
    if (segment.kind === 'literal') {
      if (segment.value !== part) return undefined
      points += 2
    } else {
      points += 1
    }
  }
  return pattern.length === path.length ? points : undefined
}

/**
 * Maps a request path to the route pattern that serves it (`/conference/:slug`, `/assets/*`), for metric labels
 * that never carry a raw URL, a reference or a secret. Patterns use `:name` for one segment and a final `*` for the rest.
 */
export function createRoutePatternMatcher(patterns: readonly string[]): (path: string) => string {
  const parsed = [...new Set(patterns)].map((pattern) => ({ pattern, segments: parse(pattern) }))
  return (path) => {
    const segments = segmentsOf(path)
    let best: { pattern: string; points: number } | undefined
    for (const { pattern, segments: patternSegments } of parsed) {
      const points = score(patternSegments, segments)
      if (points !== undefined && (!best || points > best.points)) best = { pattern, points }
    }
    return best?.pattern ?? UNMATCHED_ROUTE
  }
}
