import { terms } from './text.js';
import type { HistoryTurn } from './types.js';

const ANAPHORA = /\b(it|its|they|them|their|theirs|this|that|these|those|he|she|his|her|same|above|former|latter|there)\b/i;

/**
 * The question in the context of its conversation: a follow-up (few content terms, or
 * words like "their", "that", "it" that point back) is read together with the previous
 * question, so retrieval and the extractive generator see what it refers to.
 */
export function contextualQuestion(question: string, history: HistoryTurn[]): string {
  const previous = [...history].reverse().find((t) => t.role === 'user');
  if (!previous) return question;
  const followUp = new Set(terms(question)).size < 4 || ANAPHORA.test(question);
  return followUp ? `${question.trim()} ${previous.content.trim()}`.slice(0, 5000) : question;
}
