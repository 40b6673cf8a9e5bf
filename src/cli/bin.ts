#!/usr/bin/env node
import { main } from './main.js'

main(process.argv.slice(2)).then((code) => {
  process.exitCode = code
  // Reports are written: agent code left behind (a timer chain ignoring its abort signal) must not keep the
  // process alive. The timer is unref'd, so a clean exit is not delayed by it.
  setTimeout(() => process.exit(code), 1000).unref()
})
