import path from 'node:path'

import type { CollectionConfig } from 'payload'

import { anyone, isStaff, memberAdmin } from '@/access'
import { env } from '@/env'

import { checkUploadedImage, IMAGE_MIME_TYPES } from './imageUpload'
import { missingFileIs404 } from './missingFile'

export const Media: CollectionConfig = {
  slug: 'media',
  access: {
    admin: memberAdmin,
    create: isStaff,
    read: anyone,
    update: isStaff,
    delete: isStaff,
  },
  admin: { useAsTitle: 'alt', group: 'Content' },
  hooks: { beforeOperation: [checkUploadedImage] },
  fields: [
    {
      name: 'alt',
      type: 'text',
      required: true,
      maxLength: 250,
      admin: { description: 'What the image shows, for people who cannot see it.' },
    },
    { name: 'caption', type: 'text', maxLength: 300 },
  ],
  upload: {
    staticDir: path.resolve(env().MEDIA_DIR),
    handlers: [missingFileIs404(path.resolve(env().MEDIA_DIR))],
    mimeTypes: IMAGE_MIME_TYPES,
    adminThumbnail: 'thumbnail',
    focalPoint: true,
    imageSizes: [
      { name: 'thumbnail', width: 300 },
      { name: 'card', width: 768 },
      { name: 'wide', width: 1600 },
      { name: 'og', width: 1200, height: 630, crop: 'center' },
    ],
  },
}
