// Runs the studio's own dev server (`sanity dev`) for browser tests of the studio.
import { spawn } from 'node:child_process'
import path from 'node:path'
import { freePort, repoRoot } from './site-server.ts'

const studioDir = path.join(repoRoot, 'studio')
const sanityBin = path.join(studioDir, 'node_modules/.bin/sanity')

export interface RunningStudio {
  url: string
  stop(): Promise<void>
}

/**
 * Starts `sanity dev` in studio/ with the given environment on a free port and resolves once it serves the studio.
 * `env` replaces the studio's SANITY_STUDIO_* variables of the test process, so a developer's own settings never leak in.
 */
export async function startStudioDevServer(env: Record<string, string> = {}, { port: fixedPort }: { port?: number } = {}): Promise<RunningStudio> {
  const port = fixedPort ?? (await freePort())
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('SANITY_STUDIO_')))
  // Its own process group, so stopping it also stops the Vite server it starts.
  const server = spawn(sanityBin, ['dev', '--host', '127.0.0.1', '--port', String(port)], {
    cwd: studioDir,
    env: { ...inherited, NODE_ENV: 'development', ...env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  server.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  server.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()))
  const url = `http://127.0.0.1:${port}/`

  async function stop(): Promise<void> {
    if (server.exitCode === null && server.pid !== undefined) process.kill(-server.pid, 'SIGTERM')
    await exited
  }

  const deadline = Date.now() + 120_000
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`sanity dev exited with code ${server.exitCode}:\n${output}`)
    const ready = await fetch(url).then(
      (response) => response.ok,
      () => false,
    )
    if (ready) return { url, stop }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  await stop()
  throw new Error(`sanity dev did not serve the studio within 120 s:\n${output}`)
}
