// Shared by the workflow hook (server) and the review buttons (client): no server imports here.

export const AI_DRAFT_STATUSES = ['pending_review', 'approved', 'rejected', 'applied'] as const
export type AiDraftStatus = (typeof AI_DRAFT_STATUSES)[number]

/** The only status changes a draft may make; everything else is refused. */
export const NEXT_STATUSES: Record<AiDraftStatus, readonly AiDraftStatus[]> = {
  pending_review: ['approved', 'rejected'],
  approved: ['applied'],
  rejected: [],
  applied: [],
}
