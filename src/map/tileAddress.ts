import { z } from 'zod'

/** z/x/y as written in a tile URL: whole numbers, z up to `maxZoom`, x and y inside the zoom level's grid. */
export const tileAddressSchema = (maxZoom: number) =>
  z
    .object({
      z: z.string().regex(/^\d{1,2}$/, 'z: a whole number').transform(Number).pipe(z.number().max(maxZoom, `z: at most ${maxZoom}`)),
      x: z.string().regex(/^\d{1,6}$/, 'x: a whole number').transform(Number),
      y: z.string().regex(/^\d{1,6}$/, 'y: a whole number').transform(Number),
    })
    .refine(({ z: zoom, x, y }) => x < 2 ** zoom && y < 2 ** zoom, { message: 'x and y: outside the tile grid of that zoom' })

export type TileAddress = z.infer<ReturnType<typeof tileAddressSchema>>
