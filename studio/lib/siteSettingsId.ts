/** The _id of the one site settings document. */
export const SITE_SETTINGS_ID = 'siteSettings'
