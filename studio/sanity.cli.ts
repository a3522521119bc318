import { defineCliConfig } from 'sanity/cli'

export default defineCliConfig({
  api: {
    projectId: process.env.SANITY_STUDIO_PROJECT_ID || 'localonly',
    dataset: process.env.SANITY_STUDIO_DATASET || 'production',
  },
  typegen: {
    path: '../packages/content/src/queries.ts',
    schema: './schema.json',
    generates: '../packages/content/src/sanity.types.ts',
  },
})
