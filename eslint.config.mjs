import nextVitals from 'eslint-config-next/core-web-vitals'
import nextTs from 'eslint-config-next/typescript'

const config = [
  ...nextVitals,
  ...nextTs,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    ignores: ['.next/', 'node_modules/', 'data/', 'test-results/', 'src/migrations/', 'src/payload-types.ts', 'src/app/(payload)/admin/importMap.js', 'next-env.d.ts'],
  },
]

export default config
