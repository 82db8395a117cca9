import { Type, type Static } from 'typebox';
import { CitedSourceSchema, MessageSourceSchema } from './sources.js';

/** Validation of an answer, computed from evidence (docs/rag.md, "Validation"). */
export const ValidationSchema = Type.Object({
  confidence: Type.Number(),
  isGrounded: Type.Boolean(),
  hasHallucinations: Type.Boolean(),
  isRelevant: Type.Boolean(),
  issues: Type.Array(Type.String()),
});
export type Validation = Static<typeof ValidationSchema>;

/** Metadata of an assistant message: kept with the message, returned with it. */
export const AssistantMetadataSchema = Type.Object({
  confidence: Type.Number(),
  sources: Type.Array(MessageSourceSchema),
  citedSources: Type.Array(CitedSourceSchema),
  validation: ValidationSchema,
  generator: Type.String(),
  model: Type.Union([Type.String(), Type.Null()]),
  totalTime: Type.Number({ description: 'milliseconds' }),
});
export type AssistantMetadata = Static<typeof AssistantMetadataSchema>;

/** Confidence in words (the dashboard's and the exports' thresholds): High from 0.7, Medium from 0.4, else Low. */
export function confidenceLabel(confidence: number): 'High' | 'Medium' | 'Low' {
  return confidence >= 0.7 ? 'High' : confidence >= 0.4 ? 'Medium' : 'Low';
}

/** Confidence in words and per cent, e.g. `High (83%)`. */
export function confidenceText(confidence: number): string {
  return `${confidenceLabel(confidence)} (${Math.round(confidence * 100)}%)`;
}
