import { visionTool } from '@sanity/vision'
import { defineConfig } from 'sanity'
import { defineDocuments, defineLocations, presentationTool } from 'sanity/presentation'
import { structureTool } from 'sanity/structure'
import { AddStandardPriceOptionsAction } from './components/AddStandardPriceOptionsAction.tsx'
import { BackOfficeNavbar } from './components/BackOfficeNavbar.tsx'
import { DuplicateForNextYearAction } from './components/DuplicateForNextYearAction.tsx'
import { withSlugRedirect } from './components/PublishWithRedirectAction.tsx'
import { newEventTemplates } from './newEventTemplates.ts'
import { schemaTypes } from './schemaTypes/index.ts'
import { SITE_SETTINGS_ID } from './lib/siteSettingsId.ts'
import { structure } from './structure.ts'
import { eventLocations, pageLocations, siteSettingsLocations } from './lib/previewLocations.ts'

// Placeholder project id so `sanity build` and `sanity schema extract` run without a Sanity project; set
// SANITY_STUDIO_PROJECT_ID to edit real content.
const projectId = process.env.SANITY_STUDIO_PROJECT_ID || 'localonly'
const dataset = process.env.SANITY_STUDIO_DATASET || 'production'

// The site the Presentation tool previews drafts on; its enable route checks the Studio's secret (see the README).
const previewOrigin = process.env.SANITY_STUDIO_PREVIEW_URL || 'http://localhost:3000'

const SINGLETON_ACTIONS = new Set(['publish', 'discardChanges', 'restore'])

export default defineConfig({
  name: 'default',
  title: 'Events',
  projectId,
  dataset,
  plugins: [
    structureTool({ structure }),
    presentationTool({
      previewUrl: {
        origin: previewOrigin,
        preview: '/',
        previewMode: { enable: '/api/preview-mode/enable', disable: '/api/preview-mode/disable' },
      },
      resolve: {
        // The document an editor sees beside a page of the site.
        mainDocuments: defineDocuments([
          { route: '/conference/:slug', filter: '_type == "event" && kind == "conference" && slug.current == $slug' },
          { route: '/workshop/:slug', filter: '_type == "event" && kind == "workshop" && slug.current == $slug' },
          { route: '/', filter: '_type == "page" && slug.current == "home"' },
          { route: '/:slug', filter: '_type == "page" && slug.current == $slug' },
        ]),
        // The pages of the site a document shows on.
        locations: {
          event: defineLocations({
            select: { title: 'title', kind: 'kind', slug: 'slug.current', listed: 'card.listed' },
            resolve: eventLocations,
          }),
          page: defineLocations({ select: { title: 'title', slug: 'slug.current' }, resolve: pageLocations }),
          siteSettings: defineLocations({ select: { title: 'siteName' }, resolve: siteSettingsLocations }),
        },
      },
    }),
    visionTool(),
  ],
  studio: { components: { navbar: BackOfficeNavbar } },
  schema: {
    types: schemaTypes,
    // The site settings exist once (created by the dataset import), so editors cannot create another.
    templates: (templates) => [...templates.filter((template) => template.schemaType !== 'siteSettings'), ...newEventTemplates],
  },
  document: {
    actions: (actions, { schemaType, documentId }) => {
      if (schemaType === 'siteSettings' || documentId === SITE_SETTINGS_ID) {
        return actions.filter(({ action }) => action !== undefined && SINGLETON_ACTIONS.has(action))
      }
      if (schemaType !== 'event') return actions
      const publishing = actions.map((action) => (action.action === 'publish' ? withSlugRedirect(action) : action))
      return [...publishing, AddStandardPriceOptionsAction, DuplicateForNextYearAction]
    },
    // New events start from the conference and workshop templates rather than empty.
    newDocumentOptions: (options) => options.filter(({ templateId }) => templateId !== 'siteSettings' && templateId !== 'event'),
  },
})
