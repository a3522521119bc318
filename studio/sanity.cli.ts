import { defineCliConfig } from 'sanity/cli'
import { sanityProjectSettings } from './lib/sanityProject.ts'

const { projectId, dataset } = sanityProjectSettings(process.env)

export default defineCliConfig({
  api: {
    projectId,
    dataset,
  },
  typegen: {
    path: '../packages/content/src/queries.ts',
    schema: './schema.json',
    generates: '../packages/content/src/sanity.types.ts',
  },
})
