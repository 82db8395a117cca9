import { Fragment } from 'react';
import { countryLabel } from '../profile/codes';
import { OpenPassage } from '../viewer/DocumentViewer';
import type { ChainLink } from './api';
import styles from './Concentration.module.css';

/**
 * A vendor's chain to a provider, link by link: "The entity → PayCo SAS → Amazon Web Services,
 * Inc. (United States)". Each arrow is an edge: it opens the passage the link came from, or
 * says it was entered by hand.
 */
export function Chain({ path, links }: { path: string[]; links: Map<string, ChainLink> }) {
  const steps = path.map((id) => links.get(id)).filter((l): l is ChainLink => !!l);
  return (
    <ol className={styles.chain} aria-label="Chain from the entity">
      <li className={styles.node}>The entity</li>
      {steps.map((l) => (
        <Fragment key={l.id}>
          <li className={styles.edge}>
            <span aria-hidden="true">→</span> <Edge link={l} />
          </li>
          <li className={styles.node}>
            {l.writtenName}
            {l.country ? <span className="muted"> ({countryLabel(l.country)})</span> : null}
          </li>
        </Fragment>
      ))}
    </ol>
  );
}

function Edge({ link }: { link: ChainLink }) {
  const e = link.evidence[0];
  if (!e) return <span className="muted small">{link.rank === 1 ? 'contract' : 'entered by hand'}</span>;
  return (
    <OpenPassage
      target={{
        ws: link.workspaceId,
        source: { kind: 'document', documentId: e.documentId, chunkId: e.chunkId },
        title: e.title,
        section: e.section,
        page: e.page,
        passage: e.quote,
      }}
    >
      <span className="visually-hidden">Passage naming {link.writtenName}: </span>
      {e.title}
    </OpenPassage>
  );
}
