// `pnpm admin …`: the back office's command line (creating the first owner), run on the project's Node 24,
// which loads the TypeScript sources as they are.
import { runAdminCommand } from '../packages/staff/src/cli.ts'

process.exitCode = await runAdminCommand(process.argv.slice(2), {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
})
