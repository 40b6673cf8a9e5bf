/** The `dataforge-evals` command: `main` runs one subcommand (one file each in commands/). */

export { main } from './main.js'
