export * from './repair/index.js'
export * from './answers/index.js'
