import type { MessagesResult } from './messages.ts';
import type { TodayResult } from './today.ts';
import type { InteractionResults } from './interactions.ts';
import type { PanelWeight } from './admin-panel.ts';
import type { BlankControl } from './blank-page.ts';
import type { ChannelsResults } from './channels.ts';
import type { EditToLiveTrial } from './edit-to-live.ts';
import type { EditsResults } from './edits.ts';
import type { MemoryResults } from './memory.ts';
import type { LighthousePage } from './lighthouse.ts';
import type { LoadResult } from './load.ts';
import type { MachineInfo } from './machine.ts';
import type { ScalePoint } from './scale.ts';
import type { ReportsResult } from './reports.ts';
import type { PageWeight } from './weight.ts';

/** The shape of bench/results.json. */
export type PageResult = {
  key: PageKey;
  name: string;
  path: string;
  status: number;
  lighthouse?: LighthousePage;
  weight?: PageWeight;
  /** Why the page could not be measured at all (missing page, Lighthouse gave up). */
  error?: string;
  /** Why its weight could not be measured though Lighthouse ran. */
  weightError?: string;
};

export type PageKey = 'home' | 'catalogue' | 'cabin' | 'contacts' | 'reviews' | 'search' | 'admin' | 'guest';

/** One load run: a route of ours, the runtime's control or Caddy, at a fixed rate or at saturation. */
export type LoadRow = {
  name: string;
  path: string;
  /**
   * Who answered: the target itself; its control, a server of the same runtime that only gives
   * the route's own answer, fixed (bench/floor, bench/control-answer.ts); or Caddy serving the
   * target's built directory.
   */
  server: 'ours' | 'control' | 'caddy';
  /** `rate`: a fixed offered rate below every server's capacity; `saturation`: 50 connections, closed loop. */
  mode: 'rate' | 'saturation';
  /** Static files: served from the built directory (compared with Caddy). */
  static?: boolean;
  result: LoadResult | null;
  error?: string;
};

/** What the bench measured on one production target. */
export type TargetResults = {
  key: 'workers' | 'node';
  label: string;
  /** How the target served during the run. */
  serving: string;
  stackStartS: number;
  pages: PageResult[];
  /** A blank page through the target's serving path and from Caddy (bench/blank-page.ts). */
  blankControl?: BlankControl | { error: string };
  /** JavaScript of the admin panel once signed in (no budget: the login page is the admin's measured page). */
  adminPanel?: PanelWeight | { error: string };
  api: LoadRow[];
  editToLive: { trials: EditToLiveTrial[]; medianS: number | null; medianRebuiltS: number | null; error?: string };
  scaling: { points: ScalePoint[]; error?: string };
  /** A sync with Avito's stand-in at 15 and 150 linked cabins, on an instance of its own (bench/channels.ts). */
  channels: ChannelsResults;
  /** «Сводка», the tax report and the CSV at 1,500 cabins and 50,000 bookings, on a server of its own (bench/reports.ts; self-hosted only). */
  reports?: ReportsResult | { error: string };
  /** «Сообщения» at 2,000 threads (bench/messages.ts), self-hosted. */
  messages?: MessagesResult | { error: string };
  /** «Сегодня» at 150 cabins (bench/today.ts), self-hosted. */
  today?: TodayResult | { error: string };
  /** A one-cabin and a site-wide edit at each size, on an instance of its own (bench/edits.ts; absent when not run). */
  edits?: EditsResults;
  /** The whole self-hosted server's memory idle and at the peak of bursts of edits (bench/memory.ts; self-hosted only). */
  memory?: MemoryResults | { error: string };
  /** Taps to paint at 4× CPU, and the card's wake-up (bench/interactions.ts; absent when not run). */
  interactions?: InteractionResults | { error: string };
  /** Why the target could not be measured at all. */
  error?: string;
};

export type BenchResults = {
  date: string;
  machine: MachineInfo;
  settings: {
    lighthouseRuns: number;
    lighthouse: string;
    chromium: string;
    gzipLevel: number;
    connections: number;
    loadDurationS: number;
    /** The fixed offered rate of the latency runs (req/s), their connections and length. */
    fixedRate: number;
    rateConnections: number;
    rateDurationS: number;
    caddy: string;
    warmupS: number;
    /** Each load run's turns with the servers it is compared with (absent before 2026-11-27: one run each, one after the other). */
    loadTurns?: number;
    scaleLoadDurationS: number;
    editPollMs: number;
    editTrials: number;
    editTimeoutS: number;
    /** The channel stage (absent before it existed): «Синхронизировать сейчас» trials at each size, how long a change is waited for on Avito, polled how often. */
    channelSyncTrials?: number;
    channelPushTimeoutS?: number;
    channelPollMs?: number;
    /** The edits stage (absent before it existed): its catalogue sizes and how long an edit is waited for. */
    editsSizes?: number[];
    editsTimeoutS?: number;
  };
  /** Both targets, measured one after the other in the same run. */
  targets: TargetResults[];
  budgets: BudgetCheck[];
  totalRuntimeS: number;
};

export type BudgetCheck = {
  /** The target's label. */
  target: string;
  figure: string;
  where: string;
  value: string;
  budget: string;
  pass: boolean;
};
