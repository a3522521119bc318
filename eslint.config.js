import { readdirSync } from 'node:fs'
import js from '@eslint/js'
import importX from 'eslint-plugin-import-x'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'

// The core's layers, lowest first (docs/decisions/0007-layers.md): a module imports from its own layer and the ones
// below it, never from one above.
const CORE = 'packages/core/src'
const BACK_OFFICE_COMMANDS = `${CORE}/backoffice/{command,context,errors,fields,search-fold}.ts`
const MONEY_RECORDS_OF_CANCELLATION = `${CORE}/cancellation/{credit-note,credit-note-pdf,fee-rules}.ts`
// The modules at the core's root are foundations (ids, errors, the catalog's types), but for the ones that assemble
// the core from every layer.
const CORE_ROOT_FOUNDATIONS = `${CORE}/{${readdirSync(CORE)
  .filter((name) => name.endsWith('.ts') && !['core.ts', 'index.ts', 'test-support.ts'].includes(name))
  .join(',')}}`
const CORE_LAYERS = [
  {
    name: 'foundations',
    files: [CORE_ROOT_FOUNDATIONS, `${CORE}/db/**`, `${CORE}/validation/**`, `${CORE}/submissions/**`, `${CORE}/pdf/**`, BACK_OFFICE_COMMANDS],
  },
  { name: 'mail and outbox', files: [`${CORE}/mail/**`, `${CORE}/outbox/**`] },
  {
    name: 'registrations and their money',
    files: [`${CORE}/registration/**`, `${CORE}/invoice/**`, `${CORE}/seats/**`, `${CORE}/enquiries/**`, `${CORE}/quotes/**`, MONEY_RECORDS_OF_CANCELLATION],
  },
  { name: 'cancellation and event days', files: [`${CORE}/cancellation/**`, `${CORE}/event-days/**`] },
  { name: 'back office', files: [`${CORE}/backoffice/**`] },
]
// Imports that still climb a layer, each to be moved down rather than added to; this list only shrinks.
const CORE_LAYER_EXCEPTIONS = {
  [`${CORE}/db/backup.ts`]: [`${CORE}/mail/transport.ts`],
  [`${CORE}/db/migrations/2026-11-27T07-delegate-passes.ts`]: [`${CORE}/event-days/pass-codes.ts`],
  [`${CORE}/mail/position.ts`]: [`${CORE}/cancellation/credit-note.ts`],
  [`${CORE}/mail/payment-mails.ts`]: [`${CORE}/invoice/issue-invoice.ts`],
  [`${CORE}/outbox/stored-mail.ts`]: [`${CORE}/invoice/issue-invoice.ts`, `${CORE}/invoice/invoice-number.ts`],
  [`${CORE}/registration/commands.ts`]: [`${CORE}/event-days/passes.ts`],
  [`${CORE}/registration/position.ts`]: [`${CORE}/cancellation/cancellation-mail.ts`],
  [`${CORE}/event-days/check-in.ts`]: [`${CORE}/backoffice/attendance-register-pdf.ts`],
}

/** The rule that keeps each layer's modules from importing a higher layer's, but for the imports `allowed`. */
function coreLayerRule(allowed = []) {
  const zones = CORE_LAYERS.flatMap((layer, index) => {
    const higher = CORE_LAYERS.slice(index + 1)
    if (higher.length === 0) return []
    // A file listed in a lower layer sits in a higher layer's folder (the back office's command kernel): not higher.
    const lowerFiles = CORE_LAYERS.slice(0, index + 1).flatMap((lower) => lower.files.filter((file) => file.endsWith('.ts')))
    return [
      {
        target: layer.files,
        from: higher.flatMap((above) => above.files),
        except: [...new Set([...lowerFiles, ...allowed])].map((file) => `**/${file}`),
        message: `The core's ${layer.name} must not import from a layer above it (docs/decisions/0007-layers.md).`,
      },
    ]
  })
  return ['error', { basePath: import.meta.dirname, zones }]
}

export default tseslint.config(
  {
    ignores: ['**/node_modules/**', '**/build/**', '**/dist/**', '**/.react-router/**', '**/.sanity/**', '**/sanity.types.ts', 'data/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Promises the code forgets or hands where a callback's result is ignored: rules that need the types.
    files: ['**/*.{ts,tsx,mts}'],
    languageOptions: { parserOptions: { projectService: { allowDefaultProject: ['vitest.config.ts'] }, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
  {
    // No import circles anywhere: a module and what it imports can be read, tested and moved bottom up.
    files: ['**/*.{ts,tsx,mts,js,mjs}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.mts', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx', '.mts'] },
      'import-x/resolver-next': [importX.createNodeResolver({ extensions: ['.ts', '.tsx', '.mts', '.js', '.mjs'] })],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    files: [`${CORE}/**/*.ts`],
    ignores: ['**/*.test.ts', '**/*.fixture.ts', '**/__fixtures__/**', `${CORE}/test-support.ts`],
    rules: { 'import-x/no-restricted-paths': coreLayerRule() },
  },
  ...Object.entries(CORE_LAYER_EXCEPTIONS).map(([file, allowed]) => ({ files: [file], rules: { 'import-x/no-restricted-paths': coreLayerRule(allowed) } })),
  {
    // Sanity's document actions are documented with an async onHandle, and each of ours catches its own failures.
    files: ['studio/components/*Action.tsx'],
    rules: { '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { properties: false } }] },
  },
  {
    files: ['**/*.tsx', 'apps/site/app/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
)
