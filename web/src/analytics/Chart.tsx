import {
  ArcElement,
  BarController,
  BarElement,
  CategoryScale,
  Chart as ChartJS,
  DoughnutController,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
  type ChartConfiguration,
  type Plugin,
} from 'chart.js';
import { useEffect, useRef, type ReactNode } from 'react';

// Only the pieces the dashboard draws (tree-shaken): bars, lines, doughnuts.
ChartJS.register(
  BarController,
  BarElement,
  LineController,
  LineElement,
  PointElement,
  DoughnutController,
  ArcElement,
  CategoryScale,
  LinearScale,
  Tooltip,
  Legend,
);
ChartJS.defaults.font.family = getComputedStyle(document.documentElement).getPropertyValue('--font') || 'system-ui, sans-serif';
ChartJS.defaults.color = '#4a5568';
ChartJS.defaults.animation = false;

/** The palette of the charts: the design tokens' hues, distinct in grey scale too. */
export const COLORS = { accent: '#1d4ed8', accentSoft: '#93b4f5', ok: '#166534', warn: '#b45309', danger: '#b42318', grey: '#8a94a6', critical: '#7a1a12' };

/**
 * After each layout, how many labels of a category axis on the left do not fit its width (Chart.js
 * caps a side axis at part of the chart and cuts longer labels at the canvas edge): written to the
 * canvas as `data-labels-cut`, so a test can see that none is cut.
 */
const labelFit: Plugin = {
  id: 'labelFit',
  afterLayout(chart) {
    let cut = 0;
    for (const scale of Object.values(chart.scales)) {
      if (scale.type !== 'category' || scale.position !== 'left') continue;
      const ctx = chart.ctx;
      ctx.save();
      ctx.font = `${ChartJS.defaults.font.size ?? 12}px ${ChartJS.defaults.font.family}`;
      for (const label of scale.getLabels()) {
        const lines = Array.isArray(label) ? label : [String(label)];
        if (lines.some((l) => ctx.measureText(String(l)).width > scale.width - 4)) cut++;
      }
      ctx.restore();
    }
    chart.canvas.dataset.labelsCut = String(cut);
  },
};

/**
 * A chart on a canvas (Chart.js), with its figures also as a table for screen readers and
 * keyboard users: the canvas is an image with a summary, the table is the data.
 */
export function Chart({ config, label, height = 260, table }: { config: ChartConfiguration; label: string; height?: number; table: ReactNode }) {
  const ref = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    if (!ref.current) return;
    const chart = new ChartJS(ref.current, {
      ...config,
      options: { responsive: true, maintainAspectRatio: false, ...config.options },
      plugins: [...(config.plugins ?? []), labelFit],
    });
    return () => chart.destroy();
  }, [config]);
  return (
    <figure style={{ margin: 0 }}>
      <div style={{ position: 'relative', height }}>
        <canvas ref={ref} role="img" aria-label={label} />
      </div>
      <details style={{ marginTop: 8 }}>
        <summary className="small">Show the figures as a table</summary>
        {table}
      </details>
    </figure>
  );
}
