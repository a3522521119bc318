import { createClient } from '@sanity/client'
import { createMockAuthStore, type AuthStore } from 'sanity'
import { SANITY_API_VERSION } from './apiVersion.ts'
import type { SanityProjectSettings } from './sanityProject.ts'

/**
 * The sign-in of a studio without a project. Sanity's own sign-in would ask the placeholder project's API who the
 * user is and show a request error; this one answers at once, so the studio gets as far as its layout, which then
 * explains how to connect a project. The client it hands over is never called.
 */
export function unconnectedAuthStore({ projectId, dataset }: SanityProjectSettings): AuthStore {
  const client = createClient({ projectId, dataset, apiVersion: SANITY_API_VERSION, useCdn: false })
  return createMockAuthStore({
    client,
    currentUser: {
      id: 'unconnected',
      name: 'No Sanity project',
      email: '',
      role: 'viewer',
      roles: [{ name: 'viewer', title: 'Viewer' }],
    },
  })
}
