import { parseArgs } from 'node:util'
import { readConfig } from '@events/config'
import { openDatabase, type SiteLinks } from '@events/core'
import { STAFF_ROLES, createStaff, type MemberChange, type Staff } from './staff.ts'
import type { StaffRole } from './db/tables/users.ts'

const USAGE = [
  'Usage: pnpm admin create-user --email E --name N --role owner|manager|staff [--password-stdin]',
  '       pnpm admin deactivate-user --email E',
  '       pnpm admin reactivate-user --email E',
  '       pnpm admin set-role --email E --role owner|manager|staff',
  '       pnpm admin reset-two-factor --email E',
].join('\n')

/** The commands that change an existing account, as an owner would on the staff page: a way back for a locked-out owner. */
const MEMBER_COMMANDS: Record<string, { change: (role: StaffRole) => MemberChange; done: string }> = {
  'deactivate-user': { change: () => ({ kind: 'deactivate' }), done: 'Deactivated' },
  'reactivate-user': { change: () => ({ kind: 'reactivate' }), done: 'Reactivated' },
  'set-role': { change: (role) => ({ kind: 'set-role', role }), done: 'Changed the role of' },
  'reset-two-factor': { change: () => ({ kind: 'reset-two-factor' }), done: 'Reset two-factor sign-in of' },
}

export interface CommandIo {
  stdin: NodeJS.ReadStream
  stdout: NodeJS.WritableStream
  stderr: NodeJS.WritableStream
  env: Readonly<Record<string, string | undefined>>
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)))
  return Buffer.concat(chunks).toString('utf8')
}

/** Asks for a line on the terminal without showing what is typed. */
async function promptHidden(io: CommandIo, question: string): Promise<string> {
  const { stdin } = io
  if (!stdin.isTTY) throw new Error('No terminal to ask for the password on: pass it on standard input with --password-stdin.')
  io.stderr.write(question)
  stdin.setRawMode(true)
  stdin.resume()
  stdin.setEncoding('utf8')
  try {
    return await new Promise<string>((resolve, reject) => {
      let typed = ''
      const onData = (text: string) => {
        for (const character of text) {
          if (character === '\r' || character === '\n') {
            stdin.off('data', onData)
            io.stderr.write('\n')
            resolve(typed)
            return
          }
          if (character === '\u0003') {
            stdin.off('data', onData)
            reject(new Error('Cancelled.'))
            return
          }
          typed = character === '\u007f' || character === '\b' ? typed.slice(0, -1) : typed + character
        }
      }
      stdin.on('data', onData)
    })
  } finally {
    stdin.setRawMode(false)
    stdin.pause()
  }
}

async function readPassword(io: CommandIo, fromStdin: boolean): Promise<string> {
  if (fromStdin) return (await readAll(io.stdin)).replace(/\r?\n$/, '')
  const password = await promptHidden(io, 'Password: ')
  const repeated = await promptHidden(io, 'Password again: ')
  if (password !== repeated) throw new Error('The two passwords differ.')
  return password
}

/**
 * `pnpm admin …`: the back office's command line; answers the exit code. `siteLinks` makes the site's links from its
 * configured address (SITE_URL), as the site does.
 */
export async function runAdminCommand(argv: readonly string[], io: CommandIo, siteLinks: (siteUrl: string) => SiteLinks): Promise<number> {
  const [command = '', ...rest] = argv
  const memberCommand = MEMBER_COMMANDS[command]
  if (command !== 'create-user' && !memberCommand) {
    io.stderr.write(`${USAGE}\n`)
    return 2
  }
  let values: { email?: string; name?: string; role?: string; 'password-stdin'?: boolean }
  try {
    values = parseArgs({
      args: [...rest],
      options: { email: { type: 'string' }, name: { type: 'string' }, role: { type: 'string' }, 'password-stdin': { type: 'boolean' } },
    }).values
  } catch (error) {
    io.stderr.write(`${(error as Error).message}\n${USAGE}\n`)
    return 2
  }
  const { email, name, role } = values
  const roleNeeded = command === 'create-user' || command === 'set-role'
  const validRole = role !== undefined && STAFF_ROLES.includes(role as StaffRole)
  if (!email || (command === 'create-user' && !name) || (roleNeeded && !validRole)) {
    io.stderr.write(`${USAGE}\n`)
    return 2
  }
  const { core: config, siteUrl } = readConfig(io.env)
  const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir })
  try {
    const staff = await createStaff({ db, links: siteLinks(siteUrl) })
    if (memberCommand) return await changeMember(staff, io, email, memberCommand, role as StaffRole)
    const password = await readPassword(io, values['password-stdin'] === true)
    const user = await staff.createUser({ email, name: name ?? '', role: role as StaffRole, password })
    io.stdout.write(`Created ${user.role} ${user.email}.\n`)
    return 0
  } catch (error) {
    io.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`)
    return 1
  } finally {
    await db.close()
  }
}

async function changeMember(staff: Staff, io: CommandIo, email: string, command: (typeof MEMBER_COMMANDS)[string], role: StaffRole): Promise<number> {
  const member = await staff.findMember(email)
  if (!member) {
    io.stderr.write(`No staff account has the e-mail address ${email}.\n`)
    return 1
  }
  // The command line acts as nobody signed in: its audit entries say so.
  const changed = await staff.changeMember(null, member.id, command.change(role))
  io.stdout.write(`${command.done} ${changed.email} (${changed.role}${changed.deactivated ? ', deactivated' : ''}).\n`)
  return 0
}
