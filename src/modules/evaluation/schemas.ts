import { Type } from 'typebox';
import { Envelope, ErrorEnvelope, errorResponses } from '../../lib/envelope.js';
import { MAX_QUESTIONS, MAX_SAMPLES } from './service.js';

const Question = Type.String({ minLength: 1, maxLength: 5000 });
const Answer = Type.String({ maxLength: 20000 });
const Contexts = Type.Array(Type.String({ maxLength: 20000 }), { maxItems: 20, description: 'retrieved contexts, best first' });
const GroundTruth = Type.String({ maxLength: 20000 });

const SampleBody = Type.Object(
  { question: Question, answer: Answer, contexts: Contexts, groundTruth: Type.Optional(GroundTruth) },
  { additionalProperties: false },
);

const Score = Type.Union([Type.Number(), Type.Null()]);
const Metrics = Type.Object({ faithfulness: Score, answerRelevancy: Score, contextPrecision: Score, contextRecall: Score });

/** POST /ragas/evaluate: one sample, `samples`, or `questions`. */
export const EvaluateBody = Type.Object(
  {
    question: Type.Optional(Question),
    answer: Type.Optional(Answer),
    contexts: Type.Optional(Contexts),
    groundTruth: Type.Optional(GroundTruth),
    samples: Type.Optional(Type.Array(SampleBody, { minItems: 1, maxItems: MAX_SAMPLES })),
    questions: Type.Optional(Type.Array(Question, { minItems: 1, maxItems: MAX_QUESTIONS })),
    groundTruths: Type.Optional(Type.Array(GroundTruth, { maxItems: MAX_QUESTIONS })),
    evaluator: Type.Optional(Type.Enum(['auto', 'builtin', 'external'], { description: 'auto (default): external when configured, else builtin' })),
  },
  { additionalProperties: false },
);

/** POST /ragas/evaluate */
export const evaluateResponses = {
  200: Envelope(
    Type.Object({
      evaluator: Type.Enum(['builtin', 'external']),
      sampleCount: Type.Integer(),
      averages: Metrics,
      samples: Type.Array(
        Type.Object({
          index: Type.Integer(),
          question: Type.String(),
          answer: Type.Optional(Type.String()),
          contexts: Type.Optional(Type.Array(Type.String())),
          conversationId: Type.Optional(Type.String()),
          metrics: Metrics,
          details: Type.Optional(
            Type.Object({
              claims: Type.Integer(),
              supportedClaims: Type.Integer(),
              unsupportedClaims: Type.Array(Type.String()),
              relevantContexts: Type.Array(Type.Boolean()),
              groundTruthSentences: Type.Union([Type.Integer(), Type.Null()]),
              supportedGroundTruthSentences: Type.Union([Type.Integer(), Type.Null()]),
              answerSimilarity: Type.Number(),
              questionCoverage: Type.Number(),
            }),
          ),
        }),
      ),
      durationMs: Type.Integer(),
    }),
  ),
  ...errorResponses,
  502: ErrorEnvelope,
  503: ErrorEnvelope,
  504: ErrorEnvelope,
};
