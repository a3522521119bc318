// Run as a child process by durability.test.ts: registers once in the SQLite database under the given directory,
// prints the answer the visitor would get, then dies with SIGKILL before anything could be flushed or closed.
import { createRegistration } from '../registration/commands.ts'
import { SITE_NOW, fixedCatalog, registrationInput, testSiteLinks } from '../test-support.ts'
import { openDatabase } from './open-database.ts'

const dataDir = process.argv[2]
if (!dataDir) throw new Error('usage: register-then-crash.fixture.ts <dataDir>')
const db = await openDatabase({ dataDir })
const service = { db, catalog: fixedCatalog(), links: testSiteLinks(), siteNow: () => SITE_NOW }
const { receipt } = await createRegistration(service, registrationInput())
process.stdout.write(`${JSON.stringify(receipt)}\n`, () => process.kill(process.pid, 'SIGKILL'))
