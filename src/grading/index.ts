export * from './repair/index.js'
export * from './answers/index.js'
export * from './conformance/index.js'
