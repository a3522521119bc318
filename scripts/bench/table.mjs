import { availableParallelism } from 'node:os'

/** Prints rows of strings as a plain-text table with a header line, numbers right-aligned. */
export function printTable(header, rows) {
  const widths = header.map((_, column) => Math.max(...[header, ...rows].map((row) => String(row[column]).length)))
  const numeric = header.map((_, column) => rows.every((row) => /^[\d.,\s%KB/-]+$/.test(String(row[column]))))
  const format = (row) => row.map((cell, column) => (numeric[column] ? String(cell).padStart(widths[column]) : String(cell).padEnd(widths[column]))).join('  ')
  console.log(format(header))
  console.log(widths.map((width) => '-'.repeat(width)).join('  '))
  for (const row of rows) console.log(format(row))
}

/** The cores this machine offers Node: every figure is printed beside it, since the targets assume a small server. */
export const cores = availableParallelism()

/**
 * Prints each figure beside its target and whether it was met, with the core count: rows of
 * { figure, measured, target, met } where measured and target are already formatted.
 */
export function printTargets(rows) {
  console.log('')
  printTable(
    ['figure', 'measured', 'target', 'verdict', 'cores'],
    rows.map(({ figure, measured, target, met }) => [figure, measured, target, met ? 'met' : 'NOT MET', String(cores)]),
  )
}
