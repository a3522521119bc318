import { defineCliConfig } from 'sanity/cli'
import { studioVite } from './lib/onThisMachine.ts'
import { sanityProjectSettings } from './lib/sanityProject.ts'

const { projectId, dataset } = sanityProjectSettings(process.env)

export default defineCliConfig({
  // `pnpm dev` passes STUDIO_PORT on, so two checkouts (or another service on 3333) can run side by side.
  server: { port: Number(process.env.STUDIO_PORT || 3333) },
  api: {
    projectId,
    dataset,
  },
  // On local content (`pnpm dev` without a project) the studio asks nothing of any host off this machine.
  vite: studioVite(process.env.SANITY_STUDIO_API_HOST),
  typegen: {
    path: '../packages/content/src/queries.ts',
    schema: './schema.json',
    generates: '../packages/content/src/sanity.types.ts',
  },
})
