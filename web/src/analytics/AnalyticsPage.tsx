import type { ChartConfiguration } from 'chart.js';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { useTitle } from '../lib/useTitle';
import { ErrorMessage } from '../ui/Alert';
import { EmptyState } from '../ui/EmptyState';
import { formatDate, formatDateTime, formatDay } from '../ui/format';
import { Loading } from '../ui/Spinner';
import { usePortfolio, usePortfolioKpis, useSourceStats, useUnanswered, useUsage, type Portfolio } from './api';
import { Chart, COLORS } from './Chart';
import styles from './Analytics.module.css';

const DAY = 86_400_000;
const RISK_LABEL = { critical: 'Critical', high: 'High', medium: 'Medium', low: 'Low', notAssessed: 'Not assessed' } as const;
const RISK_COLOR = { critical: COLORS.critical, high: COLORS.danger, medium: COLORS.warn, low: COLORS.ok, notAssessed: COLORS.grey } as const;
const ms = (v: number | null | undefined) => (v === null || v === undefined ? '—' : v >= 1000 ? `${(v / 1000).toFixed(1)} s` : `${Math.round(v)} ms`);

/** Analytics: the vendor portfolio by risk, then one vendor's questions, latency, sources and unanswered questions. */
export default function AnalyticsPage() {
  useTitle('Analytics');
  // The portfolio lists every vendor (one page of up to 100, by name): it also feeds the vendor picker.
  const vendors = usePortfolio();
  const [picked, setPicked] = useState('');
  const [days, setDays] = useState(30);
  const ws = picked || vendors.data?.vendors[0]?.workspaceSlug || '';
  const from = useMemo(() => new Date(Date.now() - days * DAY).toISOString().slice(0, 10), [days]);
  return (
    <div className="page">
      <header className="page-header">
        <div>
          <h1>Analytics</h1>
          <p className="page-sub">The vendor portfolio by risk, and how each vendor's documents answer your team's questions.</p>
        </div>
      </header>
      <KpiSection />
      <PortfolioSection />
      <section aria-labelledby="usage-title" className={styles.usage}>
        <div className={styles.usageHead}>
          <h2 id="usage-title">Questions and answers</h2>
          <div className={styles.filters}>
            <div className="field">
              <label htmlFor="an-vendor">Vendor</label>
              <select id="an-vendor" value={ws} onChange={(e) => setPicked(e.target.value)} disabled={!vendors.data?.vendors.length}>
                {vendors.data?.vendors.map((v) => (
                  <option key={v.workspaceId} value={v.workspaceSlug}>
                    {v.name}
                  </option>
                ))}
              </select>
            </div>
            <div className="field">
              <label htmlFor="an-range">Period</label>
              <select id="an-range" value={days} onChange={(e) => setDays(Number(e.target.value))}>
                <option value={7}>Last 7 days</option>
                <option value={30}>Last 30 days</option>
                <option value={90}>Last 90 days</option>
                <option value={365}>Last 12 months</option>
              </select>
            </div>
          </div>
        </div>
        {vendors.isPending ? (
          <Loading label="Loading vendors…" />
        ) : vendors.isError ? (
          <ErrorMessage error={vendors.error} onRetry={() => vendors.refetch()} />
        ) : !ws ? (
          <EmptyState title="No vendor yet">Create a vendor and ask questions about its documents; the figures appear here.</EmptyState>
        ) : (
          <Usage ws={ws} from={from} />
        )}
      </section>
    </div>
  );
}

/** The exit figures of the concentration page (Article 28(8)); each opens that page's list. */
const EXIT_KPIS = [
  ['criticalFunctionsWithoutAlternative', 'Critical functions without an alternative provider'],
  ['criticalVendorsWithoutTestedExit', 'Critical vendors without a tested exit plan'],
  ['concentratedAlternatives', 'Alternatives concentrated on the same provider'],
] as const;

/** The portfolio KPIs; each figure opens the inventory filtered to the vendors it counts, the exit figures the concentration page. */
function KpiSection() {
  const k = usePortfolioKpis();
  return (
    <section aria-labelledby="kpis-title" className="card">
      <h2 id="kpis-title">Portfolio KPIs</h2>
      {k.isPending ? (
        <Loading label="Loading the KPIs…" />
      ) : k.isError ? (
        <ErrorMessage error={k.error} onRetry={() => k.refetch()} />
      ) : (
        <>
          <ul className={styles.kpiLinks}>
            {k.data.kpis.map((kpi) => (
              <li key={kpi.key}>
                <Link to={`/vendors?${kpi.query}`} data-kpi={kpi.key}>
                  <span className={styles.kpiValue}>{kpi.value}</span>
                  <span className={styles.kpiLabel}>{kpi.label}</span>
                </Link>
              </li>
            ))}
            {k.data.exits &&
              EXIT_KPIS.map(([key, label]) => (
                <li key={key}>
                  <Link to="/concentration#conc-exits" data-kpi={key}>
                    <span className={styles.kpiValue}>{k.data.exits![key]}</span>
                    <span className={styles.kpiLabel}>{label}</span>
                  </Link>
                </li>
              ))}
          </ul>
          <p className="muted small">
            {k.data.vendors} vendors · {k.data.questionnairesOutstanding} questionnaires outstanding, {k.data.questionnairesOverdue} overdue · as of{' '}
            {formatDate(k.data.asOf)}
          </p>
        </>
      )}
    </section>
  );
}

function PortfolioSection() {
  const p = usePortfolio();
  // (the same query as the page's vendor picker: one request)
  const config = useMemo(() => (p.data ? portfolioCharts(p.data) : null), [p.data]);
  return (
    <section aria-labelledby="portfolio-title" className="card">
      <h2 id="portfolio-title">Vendor portfolio</h2>
      {p.isPending ? (
        <Loading label="Loading the portfolio…" />
      ) : p.isError ? (
        <ErrorMessage error={p.error} onRetry={() => p.refetch()} />
      ) : !config ? null : (
        <div className={styles.grid2}>
          <div>
            <h3 className={styles.chartTitle}>Vendors by risk rating</h3>
            <Chart
              config={config.risk}
              label={`Vendors by risk rating: ${Object.entries(p.data.byRisk)
                .map(([k, n]) => `${RISK_LABEL[k as keyof typeof RISK_LABEL]} ${n}`)
                .join(', ')}`}
              table={
                <table className="table">
                  <thead>
                    <tr>
                      <th scope="col">Risk rating</th>
                      <th scope="col" className="num">
                        Vendors
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {Object.entries(p.data.byRisk).map(([k, n]) => (
                      <tr key={k}>
                        <td>{RISK_LABEL[k as keyof typeof RISK_LABEL]}</td>
                        <td className="num">{n}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              }
            />
          </div>
          <div>
            <h3 className={styles.chartTitle}>Latest assessment score per vendor</h3>
            <Chart
              config={config.scores}
              label={`Assessment scores: ${p.data.vendors.map((v) => `${v.name} ${v.assessment?.score ?? 'not assessed'}`).join(', ')}`}
              height={Math.max(220, p.data.vendors.length * 44)}
              table={<PortfolioTable data={p.data} />}
            />
          </div>
        </div>
      )}
    </section>
  );
}

function PortfolioTable({ data }: { data: Portfolio }) {
  return (
    <table className="table">
      <thead>
        <tr>
          <th scope="col">Vendor</th>
          <th scope="col">Tier</th>
          <th scope="col" className="num">
            Assessment score
          </th>
          <th scope="col">Risk rating</th>
          <th scope="col" className="num">
            Questionnaire score
          </th>
        </tr>
      </thead>
      <tbody>
        {data.vendors.map((v) => (
          <tr key={v.workspaceId}>
            <td>
              <Link to={`/vendors/${encodeURIComponent(v.workspaceSlug)}/assessments`}>{v.name}</Link>
            </td>
            <td className="cap">{v.criticalityTier ?? '—'}</td>
            <td className="num">{v.assessment?.score ?? '—'}</td>
            <td className="cap">{v.assessment?.riskRating ?? 'not assessed'}</td>
            <td className="num">{v.questionnaire?.score ?? '—'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function portfolioCharts(p: Portfolio): { risk: ChartConfiguration; scores: ChartConfiguration } {
  const keys = Object.keys(RISK_LABEL) as (keyof typeof RISK_LABEL)[];
  const rated = [...p.vendors].sort((a, b) => (a.assessment?.score ?? -1) - (b.assessment?.score ?? -1));
  return {
    risk: {
      type: 'doughnut',
      data: {
        labels: keys.map((k) => RISK_LABEL[k]),
        datasets: [{ data: keys.map((k) => p.byRisk[k]), backgroundColor: keys.map((k) => RISK_COLOR[k]), borderColor: '#fff', borderWidth: 2 }],
      },
      options: { plugins: { legend: { position: 'right' } } },
    },
    scores: {
      type: 'bar',
      data: {
        // The name, and the rating under it: two short lines that a phone's axis does not cut.
        labels: rated.map((v) => [
          ...[wrapLabel(v.name, 22, 1)].flat(),
          `(${v.assessment?.riskRating ? RISK_LABEL[v.assessment.riskRating] : 'not assessed'})`,
        ]),
        datasets: [
          {
            label: 'Assessment score',
            data: rated.map((v) => v.assessment?.score ?? 0),
            backgroundColor: rated.map((v) => RISK_COLOR[v.assessment?.riskRating ?? 'notAssessed']),
            maxBarThickness: 28,
          },
        ],
      },
      options: {
        indexAxis: 'y',
        scales: { x: { min: 0, max: 100, title: { display: true, text: 'Score (0-100)' } } },
        plugins: { legend: { display: false } },
      },
    },
  };
}

function Usage({ ws, from }: { ws: string; from: string }) {
  const usage = useUsage(ws, from);
  const sources = useSourceStats(ws, from);
  const unanswered = useUnanswered(ws, from);
  const charts = useMemo(() => {
    if (!usage.data) return null;
    const d = usage.data.daily;
    const perDay: ChartConfiguration = {
      type: 'bar',
      data: {
        labels: d.map((x) => formatDay(x.date)),
        datasets: [
          {
            label: 'Answered from the documents',
            data: d.map((x) => x.queries - x.unanswered),
            backgroundColor: COLORS.accent,
            stack: 'q',
            maxBarThickness: 36,
          },
          {
            label: 'Unanswered',
            data: d.map((x) => x.unanswered),
            backgroundColor: COLORS.warn,
            stack: 'q',
            maxBarThickness: 36,
          },
        ],
      },
      options: {
        scales: { x: { stacked: true }, y: { stacked: true, beginAtZero: true, ticks: { precision: 0 }, title: { display: true, text: 'Questions' } } },
      },
    };
    const latency: ChartConfiguration = {
      type: 'line',
      data: {
        labels: d.map((x) => formatDay(x.date)),
        datasets: [
          {
            label: 'Average answer time (ms)',
            data: d.map((x) => x.avgLatencyMs ?? null),
            borderColor: COLORS.accent,
            backgroundColor: COLORS.accentSoft,
            pointRadius: 4,
          },
        ],
      },
      options: { scales: { y: { beginAtZero: true, title: { display: true, text: 'Milliseconds' } } } },
    };
    return { perDay, latency };
  }, [usage.data]);
  const sourceChart = useMemo<ChartConfiguration | null>(() => {
    const s = sources.data?.sources;
    if (!s?.length) return null;
    // A long title on two lines of up to 26 characters (Chart.js draws an array as lines), never cut by the canvas.
    const label = (t: string) => wrapLabel(t, 26, 2);
    return {
      type: 'bar',
      data: {
        labels: s.map((x) => label(x.title)),
        datasets: [
          { label: 'Cited in answers', data: s.map((x) => x.citedCount), backgroundColor: COLORS.accent, maxBarThickness: 16 },
          { label: 'Retrieved passages', data: s.map((x) => x.retrievedCount), backgroundColor: COLORS.accentSoft, maxBarThickness: 16 },
        ],
      },
      options: {
        indexAxis: 'y',
        scales: { x: { beginAtZero: true, ticks: { precision: 0 } }, y: { ticks: { autoSkip: false } } },
        plugins: { tooltip: { callbacks: { title: (items) => s[items[0]!.dataIndex]?.title ?? '' } } },
      },
    };
  }, [sources.data]);

  if (usage.isPending) return <Loading label="Loading the figures…" />;
  if (usage.isError) return <ErrorMessage error={usage.error} onRetry={() => usage.refetch()} />;
  const t = usage.data.totals;
  return (
    <>
      {usage.data.scope === 'user' && <p className="muted small">You see your own questions; owners and admins of the vendor see everyone's.</p>}
      <dl className="stat-list">
        <div>
          <dt>Questions</dt>
          <dd data-testid="kpi-questions">{t.queries}</dd>
        </div>
        <div>
          <dt>Answered from the documents</dt>
          <dd data-testid="kpi-answered">{t.queries - t.unanswered}</dd>
        </div>
        <div>
          <dt>Unanswered</dt>
          <dd data-testid="kpi-unanswered">{t.unanswered}</dd>
        </div>
        <div>
          <dt>Median answer time</dt>
          <dd>{ms(t.p50LatencyMs)}</dd>
        </div>
        <div>
          <dt>95th percentile</dt>
          <dd>{ms(t.p95LatencyMs)}</dd>
        </div>
        <div>
          <dt>Grounded answers</dt>
          <dd>{t.groundedRate === null ? '—' : `${Math.round(t.groundedRate * 100)}%`}</dd>
        </div>
      </dl>
      {t.queries === 0 ? (
        <EmptyState title="No question in this period">Ask questions on the vendor's Ask tab; the charts fill as the team uses it.</EmptyState>
      ) : (
        charts && (
          <div className={styles.grid2}>
            <div className="card">
              <h3 className={styles.chartTitle}>Questions per day</h3>
              <Chart
                config={charts.perDay}
                label={`Questions per day: ${usage.data.daily.map((x) => `${formatDate(x.date)} ${x.queries}`).join(', ')}`}
                table={<DailyTable daily={usage.data.daily} />}
              />
            </div>
            <div className="card">
              <h3 className={styles.chartTitle}>Answer time</h3>
              <Chart
                config={charts.latency}
                label={`Average answer time per day: ${usage.data.daily.map((x) => `${formatDate(x.date)} ${ms(x.avgLatencyMs)}`).join(', ')}`}
                table={<DailyTable daily={usage.data.daily} />}
              />
            </div>
          </div>
        )
      )}
      <div className={styles.grid2}>
        <div className="card">
          <h3 className={styles.chartTitle}>Most-used documents</h3>
          {sources.isPending ? (
            <Loading inline label="Loading sources…" />
          ) : sources.isError ? (
            <ErrorMessage error={sources.error} />
          ) : !sourceChart ? (
            <p className="muted">No source retrieved in this period.</p>
          ) : (
            <Chart
              config={sourceChart}
              label={`Most-used documents: ${sources.data.sources.map((s) => `${s.title} cited ${s.citedCount} times`).join(', ')}`}
              height={Math.max(200, sources.data.sources.length * 46)}
              table={
                <table className="table">
                  <thead>
                    <tr>
                      <th scope="col">Document</th>
                      <th scope="col" className="num">
                        Cited
                      </th>
                      <th scope="col" className="num">
                        Retrieved
                      </th>
                      <th scope="col" className="num">
                        Questions
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {sources.data.sources.map((s) => (
                      <tr key={s.documentId}>
                        <td>{s.title}</td>
                        <td className="num">{s.citedCount}</td>
                        <td className="num">{s.retrievedCount}</td>
                        <td className="num">{s.queryCount}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              }
            />
          )}
        </div>
        <div className="card">
          <h3 className={styles.chartTitle}>
            Unanswered questions {unanswered.data && <span className="muted small">({unanswered.data.pagination.total})</span>}
          </h3>
          <p className="muted small">Failed, stopped, or answered without a cited or relevant source: what the documents may not cover.</p>
          {unanswered.isPending ? (
            <Loading inline label="Loading…" />
          ) : unanswered.isError ? (
            <ErrorMessage error={unanswered.error} />
          ) : unanswered.data.queries.length === 0 ? (
            <p className="muted">None in this period.</p>
          ) : (
            <ul className={styles.unanswered}>
              {unanswered.data.queries.map((q) => (
                <li key={q.id}>
                  <span>{q.question}</span>
                  <span className="muted small">
                    {q.status === 'answered'
                      ? q.citedCount === 0
                        ? 'no source cited'
                        : 'sources not relevant'
                      : q.status === 'aborted'
                        ? 'stopped'
                        : `failed${q.errorCode ? ` (${q.errorCode})` : ''}`}{' '}
                    · {q.user?.name ?? 'someone'} · {formatDateTime(q.createdAt)}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </div>
      </div>
    </>
  );
}

/** A title in at most `lines` lines of about `width` characters, cut at words (the last line ends with … when more is left). */
function wrapLabel(t: string, width: number, lines: number): string | string[] {
  if (t.length <= width) return t;
  const out: string[] = [];
  let line = '';
  for (const w of t.split(/\s+/)) {
    if (line && (line + ' ' + w).length > width) {
      out.push(line);
      line = w;
    } else line = line ? `${line} ${w}` : w;
  }
  if (line) out.push(line);
  if (out.length <= lines) return out.map((l) => (l.length > width ? `${l.slice(0, width - 1)}…` : l));
  const kept = out.slice(0, lines);
  const last = kept[lines - 1]!;
  kept[lines - 1] = `${last.length > width - 1 ? last.slice(0, width - 1) : last}…`;
  return kept.map((l, i) => (i < lines - 1 && l.length > width ? `${l.slice(0, width - 1)}…` : l));
}

function DailyTable({ daily }: { daily: { date: string; queries: number; answered: number; unanswered: number; avgLatencyMs: number | null }[] }) {
  return (
    <table className="table">
      <thead>
        <tr>
          <th scope="col">Day</th>
          <th scope="col" className="num">
            Questions
          </th>
          <th scope="col" className="num">
            Answered from the documents
          </th>
          <th scope="col" className="num">
            Average answer time
          </th>
        </tr>
      </thead>
      <tbody>
        {daily.map((x) => (
          <tr key={x.date}>
            <td>{formatDate(x.date)}</td>
            <td className="num">{x.queries}</td>
            <td className="num">{x.queries - x.unanswered}</td>
            <td className="num">{ms(x.avgLatencyMs)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
