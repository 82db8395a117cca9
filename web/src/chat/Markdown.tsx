import { lexer, type Token, type Tokens } from 'marked';
import { Fragment, memo, type ReactNode } from 'react';

/**
 * An answer's Markdown as React elements: marked's lexer only, no HTML string and no
 * `innerHTML`, so a model's or a document's markup can never inject anything. Raw HTML is shown
 * as text; links only when they are http(s). `[Source n]` markers become citation links.
 */
export interface CiteProps {
  n: number;
  /** Whether source n was returned (a marker naming no source stays plain text, flagged). */
  valid: boolean;
}

const CITE = /\[Source (\d+)\]/g;

function withCitations(text: string, cite: (c: CiteProps, key: string) => ReactNode, sourceCount: number, key: string): ReactNode[] {
  const out: ReactNode[] = [];
  let last = 0;
  let i = 0;
  for (const m of text.matchAll(CITE)) {
    if (m.index! > last) out.push(text.slice(last, m.index));
    const n = Number(m[1]);
    out.push(cite({ n, valid: n >= 1 && n <= sourceCount }, `${key}c${i++}`));
    last = m.index! + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

function inline(tokens: Token[] | undefined, ctx: Ctx, key: string): ReactNode[] {
  return (tokens ?? []).map((t, i) => {
    const k = `${key}.${i}`;
    switch (t.type) {
      case 'text': {
        const tt = t as Tokens.Text;
        return tt.tokens ? (
          <Fragment key={k}>{inline(tt.tokens, ctx, k)}</Fragment>
        ) : (
          <Fragment key={k}>{withCitations(tt.text, ctx.cite, ctx.sourceCount, k)}</Fragment>
        );
      }
      case 'escape':
        return <Fragment key={k}>{(t as Tokens.Escape).text}</Fragment>;
      case 'strong':
        return <strong key={k}>{inline((t as Tokens.Strong).tokens, ctx, k)}</strong>;
      case 'em':
        return <em key={k}>{inline((t as Tokens.Em).tokens, ctx, k)}</em>;
      case 'del':
        return <del key={k}>{inline((t as Tokens.Del).tokens, ctx, k)}</del>;
      case 'codespan':
        return <code key={k}>{(t as Tokens.Codespan).text}</code>;
      case 'br':
        return <br key={k} />;
      case 'link': {
        const l = t as Tokens.Link;
        return /^https?:\/\//i.test(l.href) ? (
          <a key={k} href={l.href} target="_blank" rel="noopener noreferrer">
            {inline(l.tokens, ctx, k)}
          </a>
        ) : (
          <Fragment key={k}>{inline(l.tokens, ctx, k)}</Fragment>
        );
      }
      default:
        return <Fragment key={k}>{withCitations(t.raw, ctx.cite, ctx.sourceCount, k)}</Fragment>;
    }
  });
}

interface Ctx {
  cite: (c: CiteProps, key: string) => ReactNode;
  sourceCount: number;
}

function block(tokens: Token[], ctx: Ctx, key = 'b'): ReactNode[] {
  return tokens.map((t, i) => {
    const k = `${key}.${i}`;
    switch (t.type) {
      case 'space':
      case 'def':
        return null;
      case 'paragraph':
        return <p key={k}>{inline((t as Tokens.Paragraph).tokens, ctx, k)}</p>;
      case 'heading': {
        const h = t as Tokens.Heading;
        // Answer headings sit below the page's own headings.
        return (
          <h4 key={k} className="md-heading">
            {inline(h.tokens, ctx, k)}
          </h4>
        );
      }
      case 'list': {
        const l = t as Tokens.List;
        const items = l.items.map((it, j) => <li key={`${k}.${j}`}>{block(it.tokens, ctx, `${k}.${j}`)}</li>);
        return l.ordered ? (
          <ol key={k} start={typeof l.start === 'number' ? l.start : undefined}>
            {items}
          </ol>
        ) : (
          <ul key={k}>{items}</ul>
        );
      }
      case 'blockquote':
        return <blockquote key={k}>{block((t as Tokens.Blockquote).tokens, ctx, k)}</blockquote>;
      case 'code':
        return (
          <pre key={k}>
            <code>{(t as Tokens.Code).text}</code>
          </pre>
        );
      case 'hr':
        return <hr key={k} />;
      case 'table': {
        const tb = t as Tokens.Table;
        return (
          <div key={k} className="md-table">
            <table>
              <thead>
                <tr>
                  {tb.header.map((c, j) => (
                    <th key={j} scope="col">
                      {inline(c.tokens, ctx, `${k}h${j}`)}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {tb.rows.map((r, ri) => (
                  <tr key={ri}>
                    {r.map((c, j) => (
                      <td key={j}>{inline(c.tokens, ctx, `${k}r${ri}c${j}`)}</td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        );
      }
      case 'text': {
        const tt = t as Tokens.Text;
        return <Fragment key={k}>{tt.tokens ? inline(tt.tokens, ctx, k) : withCitations(tt.text, ctx.cite, ctx.sourceCount, k)}</Fragment>;
      }
      default:
        return <p key={k}>{withCitations(t.raw, ctx.cite, ctx.sourceCount, k)}</p>;
    }
  });
}

export const Markdown = memo(function Markdown({
  text,
  sourceCount,
  cite,
}: {
  text: string;
  sourceCount: number;
  cite: (c: CiteProps, key: string) => ReactNode;
}) {
  return <div className="md">{block(lexer(text, { gfm: true }), { cite, sourceCount })}</div>;
});
