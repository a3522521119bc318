/**
 * The project id the studio runs with when none is configured: enough for `sanity build`, `schema extract` and
 * `typegen`, which never call Sanity's API.
 */
export const PLACEHOLDER_PROJECT_ID = 'localonly'

/** The Sanity project the studio edits, from `SANITY_STUDIO_PROJECT_ID` and `SANITY_STUDIO_DATASET`. */
export interface SanityProjectSettings {
  projectId: string
  dataset: string
  /** False when no project id is set (or it is the placeholder): there is no Content Lake to edit. */
  configured: boolean
}

/** Reads the project settings from the studio's environment (only `SANITY_STUDIO_*` variables reach the browser). */
export function sanityProjectSettings(env: Record<string, string | undefined>): SanityProjectSettings {
  const projectId = env.SANITY_STUDIO_PROJECT_ID?.trim() || PLACEHOLDER_PROJECT_ID
  return {
    projectId,
    dataset: env.SANITY_STUDIO_DATASET?.trim() || 'production',
    configured: projectId !== PLACEHOLDER_PROJECT_ID,
  }
}
