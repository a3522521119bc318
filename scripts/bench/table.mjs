/** Prints rows of strings as a plain-text table with a header line, numbers right-aligned. */
export function printTable(header, rows) {
  const widths = header.map((_, column) => Math.max(...[header, ...rows].map((row) => String(row[column]).length)))
  const numeric = header.map((_, column) => rows.every((row) => /^[\d.,\s%KB/-]+$/.test(String(row[column]))))
  const format = (row) =>
    row
      .map((cell, column) =>
        numeric[column] ? String(cell).padStart(widths[column]) : String(cell).padEnd(widths[column]),
      )
      .join('  ')
  console.log(format(header))
  console.log(widths.map((width) => '-'.repeat(width)).join('  '))
  for (const row of rows) console.log(format(row))
}
