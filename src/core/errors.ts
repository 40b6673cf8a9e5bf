/**
 * Bad usage or bad input: the CLI prints the message on one line and exits 2.
 * Messages name the file, row, column or field at fault.
 */
export class InputError extends Error {
  override name = 'InputError'
}
