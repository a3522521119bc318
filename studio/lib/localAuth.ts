import { createClient } from '@sanity/client'
import { createMockAuthStore, type AuthStore } from 'sanity'
import { SANITY_API_VERSION } from './apiVersion.ts'

/**
 * The sign-in of the studio on local content (`pnpm dev` without a project): the local stand-in of Sanity's API has
 * one editor and no accounts, so the studio starts signed in as that editor. Its first request is then made by the
 * layout, which can say what to do when the browser does not trust the stand-in yet, where Sanity's sign-in would
 * stop at a request error.
 */
export function localAuthStore({ projectId, dataset, apiHost }: { projectId: string; dataset: string; apiHost: string }): AuthStore {
  return createMockAuthStore({
    client: createClient({ projectId, dataset, apiHost, apiVersion: SANITY_API_VERSION, useCdn: false, withCredentials: true }),
    currentUser: {
      id: 'p-editor',
      name: 'Local editor',
      email: 'editor@example.com',
      role: 'administrator',
      roles: [{ name: 'administrator', title: 'Administrator' }],
    },
  })
}

/** The stand-in's own address, `https://<projectId>.localhost:<port>/`, where a browser accepts its certificate. */
export function localApiAddress(projectId: string, apiHost: string): string {
  return `${apiHost.replace('://', `://${projectId}.`)}/`
}
