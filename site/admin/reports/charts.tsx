// «Сводка»'s pictures (issue 43): bars drawn as inline SVG from the server's numbers, readable at a
// glance on a phone. Each is an image with a name (role="img", aria-label) and the same numbers
// in a table right under it: the table is what a screen reader reads and what the tests read.
import type { ReactNode } from 'react';

export type Bar = { key: string | number; label: string; value: number; text: string; muted?: boolean };

const BAR_COLOR = 'var(--c-primary)';
const MUTED_COLOR = 'var(--c-field)';

/**
 * Columns side by side (a period's months): the share 0–1 as the column's height, its text above
 * it, the month under it. The viewBox keeps the proportions whatever the width.
 */
export function ColumnChart({ bars, label }: { bars: readonly Bar[]; label: string }) {
  const w = 48;
  const h = 120;
  const width = Math.max(bars.length * w, w * 4);
  const top = 18;
  return (
    <svg className="chart chart--columns" role="img" aria-label={label} viewBox={`0 0 ${width} ${h + top + 22}`} preserveAspectRatio="xMidYMid meet">
      <line x1="0" x2={width} y1={top + h} y2={top + h} stroke="var(--c-line)" strokeWidth="1" />
      {bars.map((b, i) => {
        const height = Math.max(0, Math.min(1, b.value)) * h;
        const x = i * w + 8;
        return (
          <g key={b.key}>
            <rect x={x} y={top + h - height} width={w - 16} height={height} rx="3" fill={b.muted ? MUTED_COLOR : BAR_COLOR} />
            <text x={x + (w - 16) / 2} y={top + h - height - 5} textAnchor="middle" className="chart__value">
              {b.text}
            </text>
            <text x={x + (w - 16) / 2} y={top + h + 16} textAnchor="middle" className="chart__axis">
              {b.label}
            </text>
          </g>
        );
      })}
    </svg>
  );
}

/** Bars one under another (the cabins): the name on the left, the share as the bar, its text at its end. */
export function BarChart({ bars, label }: { bars: readonly Bar[]; label: string }) {
  const row = 28;
  const nameW = 130;
  const barW = 170;
  const width = nameW + barW + 60;
  return (
    <svg className="chart chart--bars" role="img" aria-label={label} viewBox={`0 0 ${width} ${Math.max(bars.length, 1) * row}`} preserveAspectRatio="xMinYMin meet">
      {bars.map((b, i) => {
        const y = i * row;
        const length = Math.max(0, Math.min(1, b.value)) * barW;
        return (
          <g key={b.key}>
            <text x={nameW - 8} y={y + row / 2 + 4} textAnchor="end" className="chart__axis">
              {clip(b.label, 18)}
            </text>
            <rect x={nameW} y={y + 6} width={barW} height={row - 12} rx="3" fill="var(--c-sand)" />
            <rect x={nameW} y={y + 6} width={length} height={row - 12} rx="3" fill={b.muted ? MUTED_COLOR : BAR_COLOR} />
            <text x={nameW + barW + 6} y={y + row / 2 + 4} className="chart__value">
              {b.text}
            </text>
          </g>
        );
      })}
    </svg>
  );
}

/** A long cabin name shortened for the picture (the table under it has it whole). */
const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** A chart and its table, as one figure with a caption. */
export function Figure({ caption, chart, children }: { caption: string; chart: ReactNode; children: ReactNode }) {
  return (
    <figure className="report-figure">
      <figcaption className="report-figure__caption">{caption}</figcaption>
      {chart}
      <div className="table-scroll">{children}</div>
    </figure>
  );
}
