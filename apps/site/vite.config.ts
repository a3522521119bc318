import { fileURLToPath } from 'node:url'
import { reactRouter } from '@react-router/dev/vite'
import { defineConfig } from 'vite'
import { precompressPlugin } from './server/precompress.ts'
import { socialImagesPlugin } from './server/social-images.ts'

const shippedDataset = fileURLToPath(new URL('../../packages/content/dataset/production.ndjson', import.meta.url))

export default defineConfig({
  // The SSR bundle's entry is our own server app, which wraps React Router's request handler.
  environments: {
    ssr: {
      // The server core stays out of the bundle: Node loads its TypeScript source (and its database, mail and
      // PDF libraries, some of which read their own files at run time) from the workspace, as its tests do.
      build: { rollupOptions: { input: './server/app.ts', external: ['@events/core', '@events/payments', '@events/observability'] } },
    },
  },
  build: {
    rolldownOptions: {
      output: {
        // The site's small shared modules (content hook, toasts, meta, form outcomes…) would otherwise be a dozen tiny
        // chunks, each a request and a gzip stream of its own: one shared chunk is about 3 KB less per page. Every public
        // page loads it, so it takes only app/lib: components (the payment button, form messages, amounts and the
        // pricing they bring) are shared by the back office and by forms that load later, and in this chunk they cost
        // every page 2 KB; the back office's own helpers (lib/admin-*) stay out too. React and React Router join it:
        // left to themselves they split into three more chunks every page loads (about 3 KB more).
        codeSplitting: {
          groups: [{ name: 'site-shared', test: /\/apps\/site\/app\/lib\/(?!admin-)|\/node_modules\/(react|react-router)\//, minShareCount: 3 }],
        },
      },
    },
    modulePreload: {
      // The preview tools load for editors only: their list of chunks to preload would sit in every public page's
      // root chunk, and what they need besides themselves is already loaded by then.
      resolveDependencies: (chunk, dependencies) => (chunk.includes('PreviewTools') ? [] : dependencies),
    },
  },
  plugins: [reactRouter(), socialImagesPlugin({ datasetPath: shippedDataset }), precompressPlugin()],
})
