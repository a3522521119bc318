// Builds the site when needed for the tests over HTTP; each of their files starts the sites it needs.
import { ensureSiteBuild } from '../support/site-server.ts'

export default function setup(): void {
  ensureSiteBuild({ force: process.env.CI === 'true' })
}
