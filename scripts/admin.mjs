// `pnpm admin …`: the back office's command line (creating the first owner), run on the project's Node 24,
// which loads the TypeScript sources as they are. Its links to the site are the site's own.
import { createSiteLinks } from '../apps/site/app/lib/site-links.ts'
import { runAdminCommand } from '../packages/staff/src/cli.ts'

const io = { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env }
process.exitCode = await runAdminCommand(process.argv.slice(2), io, createSiteLinks)
