// «Сводка»'s pictures: bars drawn as inline SVG from the server's numbers, readable at a
// glance on a phone. Each is an image with a name (role="img", aria-label) and the same numbers
// in a table right under it: the table is what a screen reader reads and what the tests read.
import type { ReactNode } from 'react';

export type Bar = { key: string | number; label: string; value: number; text: string; muted?: boolean };

const BAR_COLOR = 'var(--c-primary)';
const MUTED_COLOR = 'var(--c-field)';

/** The top of a share's scale: the largest value rounded up to a tenth (10 % at least), so low figures still read. */
export const scaleTop = (values: readonly number[]) =>
  Math.min(1, Math.max(0.1, Math.ceil(Math.max(0, ...values) * 10) / 10));

/**
 * Columns side by side (a period's months): the share as the column's height against a scale up to
 * `top` (its line and value drawn), its text above it, the month under it. The viewBox keeps the
 * proportions whatever the width.
 */
export function ColumnChart({
  bars,
  label,
  top: topValue,
  topText,
}: {
  bars: readonly Bar[];
  label: string;
  top: number;
  topText: string;
}) {
  const w = 48;
  const h = 110;
  const width = Math.max(bars.length * w, w * 5);
  const top = 22;
  return (
    <svg
      className="chart chart--columns"
      role="img"
      aria-label={label}
      viewBox={`0 0 ${width} ${h + top + 22}`}
      preserveAspectRatio="xMidYMid meet"
    >
      <line x1="0" x2={width} y1={top} y2={top} stroke="var(--c-line)" strokeWidth="1" strokeDasharray="3 3" />
      <text x={width} y={top - 5} textAnchor="end" className="chart__axis">
        {topText}
      </text>
      <line x1="0" x2={width} y1={top + h} y2={top + h} stroke="var(--c-field)" strokeWidth="1" />
      {bars.map((b, i) => {
        const height = (Math.max(0, Math.min(topValue, b.value)) / topValue) * h;
        const x = i * w + 8;
        return (
          <g key={b.key}>
            <rect
              x={x}
              y={top + h - height}
              width={w - 16}
              height={height}
              rx="3"
              fill={b.muted ? MUTED_COLOR : BAR_COLOR}
            />
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

/**
 * Bars one under another (the cabins), readable on a phone: the name on a line of its own, under
 * it the bar on a track that is the whole (100 %), its text at the end.
 */
export function BarChart({ bars, label }: { bars: readonly Bar[]; label: string }) {
  const row = 38;
  const barW = 200;
  const width = barW + 48;
  return (
    <svg
      className="chart chart--bars"
      role="img"
      aria-label={label}
      viewBox={`0 0 ${width} ${Math.max(bars.length, 1) * row}`}
      preserveAspectRatio="xMinYMin meet"
    >
      {bars.map((b, i) => {
        const y = i * row;
        const length = Math.max(0, Math.min(1, b.value)) * barW;
        return (
          <g key={b.key}>
            <text x="0" y={y + 12} className="chart__axis">
              {clip(b.label, 40)}
            </text>
            <rect x="0" y={y + 17} width={barW} height="14" rx="3" fill="var(--c-sand)" />
            <rect x="0" y={y + 17} width={length} height="14" rx="3" fill={b.muted ? MUTED_COLOR : BAR_COLOR} />
            <text x={barW + 6} y={y + 28} className="chart__value">
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
      <TableScroll label={`Таблица: ${caption.toLowerCase()}`}>{children}</TableScroll>
    </figure>
  );
}

/** A table wider than a phone scrolls sideways; the keyboard reaches the scroll too (it takes focus). */
export function TableScroll({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="table-scroll" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}
