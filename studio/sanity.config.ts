import { visionTool } from '@sanity/vision'
import { defineConfig } from 'sanity'
import { defineDocuments, defineLocations, presentationTool } from 'sanity/presentation'
import { structureTool } from 'sanity/structure'
import { AddStandardPriceOptionsAction } from './components/AddStandardPriceOptionsAction.tsx'
import { BackOfficeNavbar, LOCAL_CONTENT_FILE } from './components/BackOfficeNavbar.tsx'
import { ConnectProjectScreen } from './components/ConnectProjectScreen.tsx'
import { localContentLayout } from './components/LocalContentGate.tsx'
import { DuplicateForNextYearAction } from './components/DuplicateForNextYearAction.tsx'
import { SortSessionsAction } from './components/SortSessionsAction.tsx'
import { withSlugRedirect } from './components/PublishWithRedirectAction.tsx'
import { newEventTemplates } from './newEventTemplates.ts'
import { schemaTypes } from './schemaTypes/index.ts'
import { SITE_SETTINGS_ID } from './lib/siteSettingsId.ts'
import { structure } from './structure.ts'
import { eventLocations, pageLocations, siteSettingsLocations } from './lib/previewLocations.ts'
import { sanityProjectSettings } from './lib/sanityProject.ts'
import { localApiAddress, localAuthStore } from './lib/localAuth.ts'
import { unconnectedAuthStore } from './lib/unconnectedAuth.ts'
import { johannesburgTime } from './components/JohannesburgTime.tsx'

// Without SANITY_STUDIO_PROJECT_ID a placeholder project id lets `sanity build` and `sanity schema extract` run, and
// the studio shows how to connect a project instead of the schema's editor. The variables are named one by one:
// the bundler replaces each `process.env.SANITY_STUDIO_…` expression, not `process.env` itself.
const project = sanityProjectSettings({
  SANITY_STUDIO_PROJECT_ID: process.env.SANITY_STUDIO_PROJECT_ID,
  SANITY_STUDIO_DATASET: process.env.SANITY_STUDIO_DATASET,
})
const { projectId, dataset } = project
// Another origin for Sanity's API than api.sanity.io: a proxy, or the local stand-in (studio/localApi) that `pnpm dev`
// and the studio's browser tests run. The project id still prefixes the host (`<projectId>.<host>`).
const apiHost = process.env.SANITY_STUDIO_API_HOST || undefined

// The site the Presentation tool previews drafts on; its enable route checks the Studio's secret (see the README).
const previewOrigin = process.env.SANITY_STUDIO_PREVIEW_URL || 'http://localhost:3000'

// On local content (`pnpm dev` without a project) the studio is signed in as the stand-in's one editor and checks
// first that the browser reaches the stand-in.
const local = LOCAL_CONTENT_FILE && apiHost ? { apiAddress: localApiAddress(projectId, apiHost) } : undefined

function studioAuth() {
  if (!project.configured) return { auth: unconnectedAuthStore(project) }
  if (local && apiHost) return { auth: localAuthStore({ projectId, dataset, apiHost }) }
  return {}
}

function studioLayout() {
  if (!project.configured) return { layout: ConnectProjectScreen }
  if (local) return { layout: localContentLayout(local.apiAddress) }
  return {}
}

const SINGLETON_ACTIONS = new Set(['publish', 'discardChanges', 'restore'])

export default defineConfig({
  name: 'default',
  title: LOCAL_CONTENT_FILE ? 'Events (local content)' : 'Events',
  projectId,
  dataset,
  ...(apiHost ? { apiHost } : {}),
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
    johannesburgTime(),
  ],
  ...studioAuth(),
  studio: {
    components: { navbar: BackOfficeNavbar, ...studioLayout() },
  },
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
      return [...publishing, AddStandardPriceOptionsAction, SortSessionsAction, DuplicateForNextYearAction]
    },
    // New events start from the conference and workshop templates rather than empty.
    newDocumentOptions: (options) => options.filter(({ templateId }) => templateId !== 'siteSettings' && templateId !== 'event'),
  },
})
