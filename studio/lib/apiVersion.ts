/** The Content Lake API version the studio's own validation queries use. */
export const SANITY_API_VERSION = '2025-02-19'
