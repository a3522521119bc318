import { visionTool } from '@sanity/vision'
import { defineConfig } from 'sanity'
import { structureTool } from 'sanity/structure'
import { schemaTypes } from './schemaTypes/index.ts'
import { SITE_SETTINGS_ID } from './schemaTypes/siteSettings.ts'
import { structure } from './structure.ts'

// Placeholder project id so `sanity build` and `sanity schema extract` run without a Sanity project; set
// SANITY_STUDIO_PROJECT_ID to edit real content.
const projectId = process.env.SANITY_STUDIO_PROJECT_ID || 'localonly'
const dataset = process.env.SANITY_STUDIO_DATASET || 'production'

const SINGLETON_ACTIONS = new Set(['publish', 'discardChanges', 'restore'])

export default defineConfig({
  name: 'default',
  title: 'Events',
  projectId,
  dataset,
  plugins: [structureTool({ structure }), visionTool()],
  schema: {
    types: schemaTypes,
    // The site settings exist once (created by the dataset import), so editors cannot create another.
    templates: (templates) => templates.filter((template) => template.schemaType !== 'siteSettings'),
  },
  document: {
    actions: (actions, { schemaType, documentId }) =>
      schemaType === 'siteSettings' || documentId === SITE_SETTINGS_ID
        ? actions.filter(({ action }) => action !== undefined && SINGLETON_ACTIONS.has(action))
        : actions,
    newDocumentOptions: (options) => options.filter(({ templateId }) => templateId !== 'siteSettings'),
  },
})
