/** The run viewer (`dataforge-evals view`): a report folder's runs and transcripts served on 127.0.0.1 or exported. */

export { exportViewer } from './export.js'
export { pickRunsFile } from './load.js'
export { serveViewer } from './server.js'
