import { reactRouter } from '@react-router/dev/vite'
import { defineConfig } from 'vite'

export default defineConfig({
  // The SSR bundle's entry is our own server app, which wraps React Router's request handler.
  environments: {
    ssr: {
      // The server core stays out of the bundle: Node loads its TypeScript source (and its database, mail and
      // PDF libraries, some of which read their own files at run time) from the workspace, as its tests do.
      build: { rollupOptions: { input: './server/app.ts', external: ['@events/core', '@events/payments'] } },
    },
  },
  plugins: [reactRouter()],
})
