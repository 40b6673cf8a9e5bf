export * from './repair/index.js'
