import { Type, type TSchema } from 'typebox';

/** A schema that also allows null. */
export const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);

/** Success envelope schema around a `data` payload. */
export function Envelope<T extends TSchema>(data: T) {
  return Type.Object({ status: Type.Literal('success'), message: Type.Optional(Type.String()), data });
}

/** Success envelope without data (message only). */
export const MessageEnvelope = Type.Object({ status: Type.Literal('success'), message: Type.String() });

export const ErrorEnvelope = Type.Object({
  status: Type.Literal('error'),
  message: Type.String(),
  error: Type.Optional(Type.Object({ code: Type.String(), details: Type.Array(Type.String()) })),
});

export function ok<T>(data: T, message?: string) {
  return message === undefined ? { status: 'success' as const, data } : { status: 'success' as const, message, data };
}

export function okMessage(message: string) {
  return { status: 'success' as const, message };
}

/** Standard error responses a route documents. */
export const errorResponses = {
  400: ErrorEnvelope,
  401: ErrorEnvelope,
  403: ErrorEnvelope,
  404: ErrorEnvelope,
  409: ErrorEnvelope,
  429: ErrorEnvelope,
};

/** ISO 8601 string of a date, or null. */
export const iso = (d: Date | null | undefined): string | null => (d ? d.toISOString() : null);
