// Search ignores case and accents on both databases: staff type "sean" for "Séan", "muller" for "Müller". Both sides
// of the comparison go through the same letter table: in JavaScript for what staff typed, in SQL for the stored text
// (PostgreSQL's translate(); on SQLite the function `search_fold`, registered on each connection from this module).
const ACCENTED = 'ÀÁÂÃÄÅĀĂĄàáâãäåāăąÇĆČçćčĎĐďđÈÉÊËĒĘĚèéêëēęěÌÍÎÏĪìíîïīŁĹĽłĺľÑŃŇñńňÒÓÔÕÖØŌŐòóôõöøōőŔŘŕřŚŠŞśšşŤŢťţÙÚÛÜŪŮŰùúûüūůűÝŸýÿŹŻŽźżž'
const PLAIN = 'AAAAAAAAAaaaaaaaaaCCCcccDDddEEEEEEEeeeeeeeIIIIIiiiiiLLLlllNNNnnnOOOOOOOOooooooooRRrrSSSsssTTttUUUUUUUuuuuuuuYYyyZZZzzz'

const PLAIN_OF = new Map([...ACCENTED].map((letter, index) => [letter, PLAIN[index]!]))

/** Text as search compares it: accented Latin letters as their plain letter, then lower case. */
export function foldForSearch(text: string): string {
  return [...text]
    .map((letter) => PLAIN_OF.get(letter) ?? letter)
    .join('')
    .toLowerCase()
}

/** The SQL arguments of PostgreSQL's translate() that fold the same letters as `foldForSearch`. */
export const SEARCH_FOLD_LETTERS = { from: ACCENTED, to: PLAIN } as const
