/**
 * Procedural demo photos for seeding the local site: no network, nothing downloaded, only `sharp`.
 *
 * Each photo is an SVG scene (sky, the Caspian sea, sand, cabins, terraces, rooms) whose colours, layout and
 * sizes come from a seeded PRNG. sharp/librsvg rasterises it, then a JS pass on the raw pixels adds a slight
 * lens softness, a colour grade, a vignette and film grain before the JPEG encode.
 *
 * Performance notes (librsvg): SVG filters and element `opacity` each allocate an offscreen layer and are slow
 * on large areas, so soft shapes are drawn with radial gradients and transparency uses fill-/stroke-opacity.
 *
 * CLI: `node scripts/demo/photos.ts [perKind]` writes examples and a contact sheet to /tmp/demo-photos/.
 */
import sharp from 'sharp';
import { seededRandom } from '../../site/lib/seeded-random.ts';

export type PhotoKind = 'cabin-exterior' | 'interior' | 'sea' | 'beach' | 'terrace' | 'sunset';

const W = 1600;
const H = 1067;

// ---------------------------------------------------------------------------------------------
// Helpers: randomness, colours, SVG snippets

type Rand = {
  next: () => number;
  range: (a: number, b: number) => number;
  int: (a: number, b: number) => number;
  pick: <T>(xs: readonly T[]) => T;
  chance: (p: number) => boolean;
};

function makeRand(seed: number, kind: string): Rand {
  let h = 0x811c9dc5;
  for (let i = 0; i < kind.length; i++) h = Math.imul(h ^ kind.charCodeAt(i), 0x01000193);
  const next = seededRandom((Math.imul(seed | 0, 0x9e3779b1) ^ h) >>> 0);
  for (let i = 0; i < 4; i++) next();
  const range = (a: number, b: number) => a + (b - a) * next();
  return {
    next,
    range,
    int: (a, b) => Math.floor(range(a, b + 1)),
    pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length) % xs.length] as T,
    chance: (p) => next() < p,
  };
}

type RGB = [number, number, number];
const toRgb = (hex: string): RGB => {
  const n = parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
};
const toHex = (c: RGB) =>
  '#' +
  c
    .map((v) =>
      Math.max(0, Math.min(255, Math.round(v)))
        .toString(16)
        .padStart(2, '0'),
    )
    .join('');
/** Linear blend of two hex colours. */
function mix(a: string, b: string, t: number): string {
  const x = toRgb(a);
  const y = toRgb(b);
  return toHex([x[0] + (y[0] - x[0]) * t, x[1] + (y[1] - x[1]) * t, x[2] + (y[2] - x[2]) * t]);
}
/** Positive t lightens towards white, negative darkens towards black. */
const shade = (c: string, t: number) => (t >= 0 ? mix(c, '#ffffff', t) : mix(c, '#000000', -t));
/** Small random drift of a colour so no two photos share exact tones. */
function vary(r: Rand, c: string, amt = 10): string {
  const [x, y, z] = toRgb(c);
  const d = r.range(-amt, amt);
  return toHex([x + d + r.range(-amt, amt) * 0.5, y + d + r.range(-amt, amt) * 0.5, z + d + r.range(-amt, amt) * 0.5]);
}

type V2 = [number, number];
const f1 = (v: number) => String(Math.round(v * 10) / 10);
const pts = (p: readonly V2[]) => p.map(([x, y]) => `${f1(x)},${f1(y)}`).join(' ');

type Ctx = { r: Rand; defs: string[]; uid: number; soft: Map<string, string> };

function newId(ctx: Ctx, prefix: string): string {
  ctx.uid += 1;
  return `${prefix}${ctx.uid}`;
}

type Stop = [offset: number, color: string, opacity?: number];
const stopsSvg = (stops: readonly Stop[]) =>
  stops
    .map(
      ([o, c, a]) =>
        `<stop offset="${f1(o * 100)}%" stop-color="${c}"${a === undefined ? '' : ` stop-opacity="${a.toFixed(3)}"`}/>`,
    )
    .join('');

/** Linear gradient (bounding-box units unless `user`); returns `url(#id)`. */
function lin(ctx: Ctx, stops: readonly Stop[], x1 = 0, y1 = 0, x2 = 0, y2 = 1, user = false): string {
  const id = newId(ctx, 'l');
  const units = user ? ' gradientUnits="userSpaceOnUse"' : '';
  ctx.defs.push(
    `<linearGradient id="${id}" x1="${f1(x1)}" y1="${f1(y1)}" x2="${f1(x2)}" y2="${f1(y2)}"${units}>${stopsSvg(stops)}</linearGradient>`,
  );
  return `url(#${id})`;
}

/** Radial gradient in user space (optionally elliptical); returns `url(#id)`. */
function rad(ctx: Ctx, stops: readonly Stop[], cx: number, cy: number, rx: number, ry = rx): string {
  const id = newId(ctx, 'r');
  ctx.defs.push(
    `<radialGradient id="${id}" gradientUnits="userSpaceOnUse" cx="0" cy="0" r="${f1(rx)}" gradientTransform="translate(${f1(cx)} ${f1(cy)}) scale(1 ${(ry / rx).toFixed(4)})">${stopsSvg(stops)}</radialGradient>`,
  );
  return `url(#${id})`;
}

/** A shared soft-edged fill (colour fading to transparent at the shape's edge); `core` = solid fraction. */
function soft(ctx: Ctx, color: string, core = 0.35): string {
  const key = `${color}/${core}`;
  let id = ctx.soft.get(key);
  if (!id) {
    id = newId(ctx, 's');
    ctx.soft.set(key, id);
    ctx.defs.push(
      `<radialGradient id="${id}">${stopsSvg([
        [0, color, 1],
        [core, color, 0.92],
        [(core + 1) / 2, color, 0.45],
        [1, color, 0],
      ])}</radialGradient>`,
    );
  }
  return `url(#${id})`;
}

/** fill-opacity (cheap) rather than opacity (an offscreen layer per element in librsvg). */
const fo = (o: number) => ` fill-opacity="${Math.max(0, Math.min(1, o)).toFixed(3)}"`;
const so = (o: number) => ` stroke-opacity="${Math.max(0, Math.min(1, o)).toFixed(3)}"`;
const rect = (x: number, y: number, w: number, h: number, fill: string, extra = '') =>
  `<rect x="${f1(x)}" y="${f1(y)}" width="${f1(Math.max(0, w))}" height="${f1(Math.max(0, h))}" fill="${fill}"${extra}/>`;
const ell = (cx: number, cy: number, rx: number, ry: number, fill: string, extra = '') =>
  `<ellipse cx="${f1(cx)}" cy="${f1(cy)}" rx="${f1(Math.max(0.1, rx))}" ry="${f1(Math.max(0.1, ry))}" fill="${fill}"${extra}/>`;
const poly = (p: readonly V2[], fill: string, extra = '') => `<polygon points="${pts(p)}" fill="${fill}"${extra}/>`;
const line = (a: V2, b: V2, stroke: string, w: number, extra = '') =>
  `<line x1="${f1(a[0])}" y1="${f1(a[1])}" x2="${f1(b[0])}" y2="${f1(b[1])}" stroke="${stroke}" stroke-width="${f1(w)}"${extra}/>`;
const polyline = (p: readonly V2[], stroke: string, w: number, extra = '') =>
  `<polyline points="${pts(p)}" fill="none" stroke="${stroke}" stroke-width="${f1(w)}" stroke-linejoin="round" stroke-linecap="round"${extra}/>`;

/** A gently wavy line across [x0, x1] around yBase: the sum of a few random sines. */
function ridge(r: Rand, x0: number, x1: number, yBase: number, amp: number, wave: number, step = 16): V2[] {
  const waves = [0, 1, 2].map((i) => ({
    k: (Math.PI * 2) / ((wave * r.range(0.6, 1.4)) / (i + 1) ** 1.3),
    p: r.range(0, Math.PI * 2),
    a: amp / (i + 1) ** 1.2,
  }));
  const out: V2[] = [];
  for (let x = x0; ; x += step) {
    const xx = Math.min(x, x1);
    out.push([xx, yBase + waves.reduce((s, w) => s + w.a * Math.sin(xx * w.k + w.p), 0)]);
    if (xx >= x1) break;
  }
  return out;
}
/** Closes a ridge down to `bottom` as a fillable polygon. */
const ridgeFill = (top: V2[], bottom: number): V2[] => [
  ...top,
  [top[top.length - 1]![0], bottom],
  [top[0]![0], bottom],
];

/** A closed organic blob (foliage, clouds): a smooth path through jittered points on an ellipse. */
function blob(r: Rand, cx: number, cy: number, rx: number, ry: number, bumps = 10, rough = 0.16): string {
  const p: V2[] = [];
  const rot = r.range(0, Math.PI * 2);
  for (let i = 0; i < bumps; i++) {
    const a = rot + (i / bumps) * Math.PI * 2;
    const k = 1 + (r.next() - 0.5) * 2 * rough;
    p.push([cx + Math.cos(a) * rx * k, cy + Math.sin(a) * ry * k]);
  }
  const mid = (a: V2, b: V2): V2 => [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
  let d = `M${pts([mid(p[bumps - 1]!, p[0]!)])}`;
  for (let i = 0; i < bumps; i++) d += ` Q${pts([p[i]!])} ${pts([mid(p[i]!, p[(i + 1) % bumps]!)])}`;
  return `${d}Z`;
}
const path = (d: string, fill: string, extra = '') => `<path d="${d}" fill="${fill}"${extra}/>`;

// ---------------------------------------------------------------------------------------------
// Sky, sea, sand

type Sky = { top: string; horizon: string; sunX: number; sunY: number };

function daySky(ctx: Ctx, horizon: number): { svg: string; sky: Sky } {
  const r = ctx.r;
  const top = vary(r, r.pick(['#5b8fc6', '#6a9ccf', '#7aa8d2', '#4f87c2', '#86adcf', '#6d98c0']), 8);
  const hz = vary(r, r.pick(['#e3ecef', '#eef0e8', '#f3ece0', '#dde8ee', '#e8ebe6']), 5);
  const sky: Sky = { top, horizon: hz, sunX: r.range(0.05, 0.95) * W, sunY: r.range(-0.2, 0.15) * H };
  let svg = rect(
    0,
    0,
    W,
    horizon + 2,
    lin(
      ctx,
      [
        [0, top],
        [0.55, mix(top, hz, 0.5)],
        [0.85, mix(top, hz, 0.85)],
        [1, hz],
      ],
      0,
      0,
      0,
      horizon,
      true,
    ),
  );
  // sun bloom, usually just outside the frame
  svg += rect(
    0,
    0,
    W,
    horizon,
    rad(
      ctx,
      [
        [0, '#fffcf0', 0.9],
        [0.3, '#fff7e4', 0.35],
        [1, '#fff7e4', 0],
      ],
      sky.sunX,
      sky.sunY,
      W * 0.5,
    ),
  );
  svg += clouds(ctx, horizon, '#ffffff', mix('#bcc7d2', top, 0.3), r.pick([0.2, 0.6, 1, 1.4]));
  return { svg, sky };
}

function clouds(ctx: Ctx, horizon: number, light: string, dark: string, amount: number): string {
  const r = ctx.r;
  let s = '';
  // thin high streaks first
  const streaks = r.int(0, 4);
  for (let i = 0; i < streaks; i++) {
    const w = r.range(250, 700);
    s += ell(
      r.range(0, W),
      horizon * r.range(0.05, 0.7),
      w,
      w * r.range(0.02, 0.05),
      soft(ctx, light, 0.1),
      fo(r.range(0.25, 0.55)),
    );
  }
  const n = Math.round(r.range(2, 6) * amount);
  const items: [number, number][] = [];
  for (let i = 0; i < n; i++) items.push([r.next() ** 0.8, r.range(-0.1, 1.1) * W]); // depth: 0 = high and near, 1 = at the horizon
  items.sort((a, b) => b[0] - a[0]);
  for (const [depth, x] of items) {
    const cy = horizon * (0.18 + depth * 0.74);
    const w = (1 - depth * 0.7) * r.range(380, 900);
    if (depth > 0.7) s += cloudBank(ctx, x, cy, w * 1.6, w * r.range(0.06, 0.1), light, dark, r.range(0.6, 0.9));
    else s += cloud(ctx, x, cy, w, w * r.range(0.25, 0.4) * (1 - depth * 0.4), light, dark, r.range(0.8, 1));
  }
  return s;
}

/** A cumulus: a flat, shaded base under a heap of overlapping soft puffs that are lighter towards the top. */
function cloud(ctx: Ctx, cx: number, cy: number, w: number, h: number, light: string, dark: string, o: number): string {
  const r = ctx.r;
  const body = soft(ctx, mix(dark, light, 0.5), 0.45);
  const lit = soft(ctx, light, 0.45);
  let s = ell(cx, cy, w * 0.52, h * 0.2, soft(ctx, dark, 0.35), fo(o * 0.8));
  const n = r.int(10, 18);
  const puffs: [number, number, number][] = [];
  for (let i = 0; i < n; i++) {
    const t = (r.next() + r.next() - 1) * 0.5; // -0.5..0.5, denser in the middle
    const dome = Math.sqrt(Math.max(0, 1 - (2 * t) ** 2));
    const lh = h * (0.25 + 0.75 * dome) * r.range(0.6, 1);
    const rr = lh * 0.45 + h * 0.1;
    puffs.push([cx + t * w, cy - lh * r.range(0.35, 0.6), rr]);
  }
  puffs.sort((a, b) => b[1] - a[1]);
  for (const [x, y, rr] of puffs) s += ell(x, y + rr * 0.15, rr * 1.25, rr, body, fo(o));
  for (const [x, y, rr] of puffs) s += ell(x - rr * 0.12, y - rr * 0.18, rr * 1.0, rr * 0.78, lit, fo(o));
  return s;
}

/** A far, flat bank of cloud near the horizon. */
function cloudBank(
  ctx: Ctx,
  cx: number,
  cy: number,
  w: number,
  h: number,
  light: string,
  dark: string,
  o: number,
): string {
  const r = ctx.r;
  let s = '';
  const n = r.int(4, 8);
  for (let i = 0; i < n; i++) {
    const x = cx + r.range(-0.45, 0.45) * w;
    const rx = w * r.range(0.15, 0.3);
    s += ell(x, cy + h * 0.1, rx, h * r.range(0.35, 0.5), soft(ctx, mix(dark, light, 0.4), 0.3), fo(o * 0.8));
    s += ell(x - rx * 0.1, cy - h * 0.1, rx * 0.8, h * r.range(0.25, 0.4), soft(ctx, light, 0.35), fo(o));
  }
  return s;
}

type SeaOpts = {
  horizon: number;
  bottom: number;
  far: string;
  near: string;
  sunX: number;
  glint: string;
  glintAmount: number;
  haze: string;
};

function sea(ctx: Ctx, o: SeaOpts): string {
  const r = ctx.r;
  const depth = o.bottom - o.horizon;
  let s = rect(
    0,
    o.horizon,
    W,
    depth + 2,
    lin(
      ctx,
      [
        [0, o.far],
        [0.3, mix(o.far, o.near, 0.55)],
        [1, o.near],
      ],
      0,
      o.horizon,
      0,
      o.horizon + Math.max(depth, 250),
      true,
    ),
  );
  // wave streaks: perspective spacing, wider and thicker towards the viewer
  const light = shade(o.far, 0.4);
  const dark = shade(o.near, -0.3);
  const n = Math.round(depth * 0.5);
  for (let i = 0; i < n; i++) {
    const t = r.next() ** 1.6;
    const rx = 30 + t * r.range(120, 420);
    const ry = 0.7 + t * r.range(1.5, 5);
    s += ell(
      r.range(-50, W + 50),
      o.horizon + 3 + t * depth,
      rx,
      ry,
      r.chance(0.5) ? light : dark,
      fo(r.range(0.1, 0.3) * (0.6 + t)),
    );
  }
  // sun glitter
  const g = Math.round(depth * 0.6 * o.glintAmount);
  for (let i = 0; i < g; i++) {
    const t = r.next() ** 1.3;
    const spread = 40 + t * 380;
    const x = o.sunX + (r.next() + r.next() + r.next() - 1.5) * spread;
    s += ell(x, o.horizon + 2 + t * depth, 3 + t * r.range(8, 36), 0.7 + t * 2, o.glint, fo(r.range(0.35, 0.9)));
  }
  // haze at the horizon and a crisp-ish horizon line
  s += rect(
    0,
    o.horizon - 8,
    W,
    depth * 0.25 + 8,
    lin(ctx, [
      [0, o.haze, 0.8],
      [0.1, o.haze, 0.45],
      [1, o.haze, 0],
    ]),
  );
  s += rect(
    0,
    o.horizon - 1,
    W,
    2.5,
    lin(ctx, [
      [0, shade(o.far, -0.15), 0],
      [0.5, shade(o.far, -0.15), 0.5],
      [1, shade(o.far, -0.15), 0],
    ]),
  );
  return s;
}

/** Soft distant hills along part of the horizon, tapering into the sea. */
function farCoast(ctx: Ctx, horizon: number, color: string): string {
  const r = ctx.r;
  const left = r.chance(0.5);
  const len = W * r.range(0.2, 0.5);
  const x0 = left ? -20 : W - len;
  const x1 = left ? len : W + 20;
  const top = ridge(r, x0, x1, horizon - r.range(18, 50), r.range(8, 20), 260, 12).map(([x, y]): V2 => {
    const edge = left ? (x1 - x) / len : (x - x0) / len;
    return [x, horizon - (horizon - y) * Math.min(1, edge * 2.2)];
  });
  return poly(
    ridgeFill(top, horizon + 1),
    lin(ctx, [
      [0, color, 0.85],
      [1, color, 0.6],
    ]),
  );
}

type Sand = { light: string; mid: string; dark: string; wet: string };
function sand(r: Rand): Sand {
  const light = vary(r, r.pick(['#eadcbd', '#e8d5b0', '#efe0c2', '#e3d2ad', '#e6d8bb']), 6);
  return {
    light,
    mid: mix(light, '#c9a878', 0.42),
    dark: mix(light, '#a08460', 0.6),
    wet: mix(light, '#8f7d62', 0.45),
  };
}

/** Beach from the water's edge down: shallow film, foam lines, wet band, dry sand with faint ripples. */
function beach(ctx: Ctx, edge: number, sd: Sand, seaNear: string): string {
  const r = ctx.r;
  const top = ridge(r, -20, W + 20, edge, r.range(4, 12), 700, 20);
  const span = H - edge;
  let s = poly(
    ridgeFill(top, H + 2),
    lin(
      ctx,
      [
        [0, sd.wet],
        [0.14, mix(sd.wet, sd.light, 0.55)],
        [0.32, sd.light],
        [1, sd.mid],
      ],
      0,
      edge,
      0,
      H,
      true,
    ),
  );
  // the last wash of water over the wet sand
  const wash = ridge(r, -20, W + 20, edge + span * r.range(0.04, 0.1), r.range(4, 10), 450, 20);
  s += poly([...top, ...wash.slice().reverse()], mix(seaNear, '#ffffff', 0.45), fo(0.4));
  s += polyline(wash, '#ffffff', 9, so(0.25)) + polyline(wash, '#ffffff', 2.5, so(0.8));
  s += polyline(top, '#ffffff', 12, so(0.3)) + polyline(top, '#ffffff', 4, so(0.9));
  const foam2 = ridge(r, -20, W + 20, edge - span * r.range(0.03, 0.07), r.range(3, 8), 500, 20);
  s += polyline(foam2, '#ffffff', 3, `${so(0.55)} stroke-dasharray="${f1(r.range(60, 220))} ${f1(r.range(20, 80))}"`);
  // ripples, footprints of the wind, shells
  for (let i = 0; i < 36; i++) {
    const t = r.next();
    const y = edge + span * (0.18 + t * 0.82);
    const x0 = r.range(-100, W);
    s += polyline(
      ridge(r, x0, x0 + 80 + t * 300, y, 1.5 + t * 3, 60 + t * 100, 10),
      sd.dark,
      1 + t * 2.5,
      so(0.07 + t * 0.09),
    );
  }
  for (let i = 0; i < 70; i++) {
    const t = r.next();
    s += ell(
      r.range(0, W),
      edge + span * (0.12 + t * 0.88),
      1 + t * 3,
      0.7 + t * 1.8,
      r.chance(0.5) ? '#ffffff' : sd.dark,
      fo(r.range(0.2, 0.5)),
    );
  }
  return s;
}

function grassTuft(r: Rand, x: number, y: number, size: number, color: string, o = 1): string {
  let d = '';
  const blades = r.int(7, 14);
  for (let i = 0; i < blades; i++) {
    const a = r.range(-0.9, 0.9);
    const len = size * r.range(0.5, 1.1);
    const bx = x + r.range(-size * 0.15, size * 0.15);
    d += `M${f1(bx)},${f1(y)} Q${f1(bx + Math.sin(a) * len * 0.3)},${f1(y - len * 0.6)} ${f1(bx + Math.sin(a) * len)},${f1(y - Math.cos(a) * len)} `;
  }
  return `<path d="${d}" fill="none" stroke="${color}" stroke-width="${f1(Math.max(1.2, size * 0.028))}" stroke-linecap="round"${so(o)}/>`;
}

/** A dune rising towards one side of the frame, with marram grass. */
function dune(
  ctx: Ctx,
  yBase: number,
  left: boolean,
  widthFrac: number,
  peak: number,
  sd: Sand,
  grass: string,
): string {
  const r = ctx.r;
  const wD = W * widthFrac;
  const wob = ridge(r, -20, wD + 40, 0, peak * 0.08, 260, 14);
  const top: V2[] = wob.map(([x, w]) => {
    const t = Math.min(1, Math.max(0, 1 - x / wD)); // 1 at the frame edge, 0 at the dune's foot
    const e = t * t * (3 - 2 * t);
    const xx = left ? x : W - x;
    return [xx, yBase + 10 - peak * e + w * e];
  });
  let s = poly(
    ridgeFill(top, H + 2),
    lin(
      ctx,
      [
        [0, shade(sd.light, 0.12)],
        [0.35, sd.light],
        [1, sd.mid],
      ],
      0,
      yBase - peak,
      0,
      H,
      true,
    ),
  );
  // lee-side shadow down the face
  s += poly(
    ridgeFill(
      top.map(([x, y]): V2 => [x, y + 6]),
      H + 2,
    ),
    lin(
      ctx,
      [
        [0, sd.dark, 0],
        [0.5, sd.dark, 0.12],
        [1, sd.dark, 0.3],
      ],
      left ? 1 : 0,
      0,
      left ? 0 : 1,
      0,
    ),
  );
  const tufts = r.int(10, 22);
  for (let k = 0; k < tufts; k++) {
    const p = top[Math.floor(r.range(0, top.length * 0.75))]!;
    const size = r.range(30, 90) * (0.6 + (p[1] < yBase ? 0.6 : 0));
    s += grassTuft(r, p[0] + r.range(-20, 20), p[1] + r.range(4, 70), size, mix(grass, sd.dark, r.range(0, 0.45)));
  }
  return s;
}

// ---------------------------------------------------------------------------------------------
// Trees

type Greens = { dark: string; mid: string; light: string; trunk: string };
function greens(r: Rand): Greens {
  const mid = vary(r, r.pick(['#56714a', '#5d7748', '#4d6a44', '#667e4e', '#4a6650']), 8);
  return { dark: shade(mid, -0.4), mid, light: mix(mid, '#d3d9a0', 0.35), trunk: vary(r, '#5f4b3a', 8) };
}
/** Greens pushed towards the sky colour: aerial perspective for far trees. */
const hazed = (g: Greens, haze: string, t: number): Greens => ({
  dark: mix(g.dark, haze, t),
  mid: mix(g.mid, haze, t),
  light: mix(g.light, haze, t),
  trunk: mix(g.trunk, haze, t),
});

type TreeKind = 'pine' | 'round' | 'poplar';

function tree(ctx: Ctx, kind: TreeKind, x: number, yb: number, h: number, g: Greens): string {
  const r = ctx.r;
  const lean = r.range(-0.06, 0.06) * h;
  const trunkTop = kind === 'pine' ? 0.72 : kind === 'poplar' ? 0.3 : 0.5;
  const tw = h * (kind === 'poplar' ? 0.018 : 0.026);
  let s = poly(
    [
      [x - tw, yb],
      [x + tw, yb],
      [x + lean + tw * 0.5, yb - h * trunkTop],
      [x + lean - tw * 0.5, yb - h * trunkTop],
    ],
    g.trunk,
  );
  const crowns: [number, number, number, number][] = []; // cx, cy, rx, ry
  if (kind === 'pine') {
    // Eldar/Scots pine: a tall trunk with flat clouds of needles at the top
    const n = r.int(5, 8);
    for (let i = 0; i < n; i++) {
      const t = r.next();
      const cy = yb - h * (0.6 + t * 0.3);
      const cx = x + lean * (0.8 + t * 0.2) + r.range(-0.2, 0.2) * h * (1 - t * 0.6);
      const rx = h * r.range(0.1, 0.17) * (1 - t * 0.4);
      crowns.push([cx, cy, rx, rx * r.range(0.45, 0.65)]);
      s += line([x + lean * 0.85, cy + h * 0.05], [cx, cy + rx * 0.2], g.trunk, tw * 0.45);
    }
  } else if (kind === 'poplar') {
    const rx = h * r.range(0.08, 0.11);
    crowns.push([x + lean, yb - h * 0.58, rx, h * 0.4]);
    for (let i = 0; i < 3; i++)
      crowns.push([
        x + lean * (1 + i * 0.1) + r.range(-0.4, 0.4) * rx,
        yb - h * (0.4 + i * 0.2),
        rx * r.range(0.75, 1),
        h * r.range(0.14, 0.22),
      ]);
  } else {
    const n = r.int(3, 5);
    for (let i = 0; i < n; i++) {
      const rr = h * r.range(0.17, 0.26);
      crowns.push([x + lean + r.range(-0.18, 0.18) * h, yb - h * r.range(0.55, 0.78), rr, rr * r.range(0.75, 0.95)]);
    }
  }
  for (const [cx, cy, rx, ry] of crowns) s += path(blob(r, cx, cy, rx, ry, kind === 'poplar' ? 16 : 11, 0.14), g.dark);
  for (const [cx, cy, rx, ry] of crowns)
    s += path(blob(r, cx - rx * 0.12, cy - ry * 0.14, rx * 0.82, ry * 0.78, 10, 0.18), g.mid);
  for (const [cx, cy, rx, ry] of crowns) {
    const k = r.int(1, 3);
    for (let i = 0; i < k; i++)
      s += path(
        blob(
          r,
          cx - rx * r.range(0.1, 0.45),
          cy - ry * r.range(0.2, 0.5),
          rx * r.range(0.25, 0.4),
          ry * r.range(0.2, 0.35),
          8,
          0.2,
        ),
        g.light,
        fo(0.8),
      );
  }
  return s;
}

// ---------------------------------------------------------------------------------------------
// Buildings

type Win = { glassTop: string; glassBottom: string; frame: string };

function windowSvg(ctx: Ctx, x: number, y: number, w: number, h: number, win: Win, mullions = true): string {
  const fw = Math.max(3, w * 0.07);
  let s = rect(x - fw, y - fw, w + fw * 2, h + fw * 2, win.frame);
  s += rect(
    x,
    y,
    w,
    h,
    lin(ctx, [
      [0, win.glassTop],
      [1, win.glassBottom],
    ]),
  );
  s += poly(
    [
      [x + w * 0.15, y + h],
      [x + w * 0.55, y],
      [x + w * 0.75, y],
      [x + w * 0.35, y + h],
    ],
    '#ffffff',
    fo(0.12),
  );
  if (mullions)
    s += rect(x + w / 2 - fw * 0.35, y, fw * 0.7, h, win.frame) + rect(x, y + h * 0.42, w, fw * 0.6, win.frame);
  s += rect(x - fw * 1.3, y + h + fw * 0.6, w + fw * 2.6, fw * 1.2, shade(win.frame, -0.1));
  return s;
}

/** A gabled cabin in a light oblique view: front gable plus a receding side wall in shade. */
function cabin(ctx: Ctx, xc: number, yb: number, w: number, sky: Sky, sunLeft: boolean): string {
  const r = ctx.r;
  const wall = vary(
    r,
    r.pick(['#a87a50', '#b98a5c', '#8d6440', '#e9e2d3', '#d7cbb4', '#9fb5b4', '#c9b48d', '#b9c8c6']),
    8,
  );
  const roof = vary(r, r.pick(['#4a4d52', '#6b3f33', '#3f5a55', '#5a5247', '#7a4a3a', '#556070']), 6);
  const trim = r.pick(['#f2eee6', '#ece6da', shade(wall, -0.35)]);
  const hWall = w * r.range(0.42, 0.58);
  const hRoof = w * r.range(0.28, 0.55);
  const depth = w * r.range(0.55, 0.9);
  const side = sunLeft ? 1 : -1; // the side wall recedes away from the sun, so it sits in shade
  const ox = depth * 0.62 * side;
  const oy = -depth * 0.2;
  const x0 = xc - w / 2;
  const x1 = xc + w / 2;
  const yt = yb - hWall;
  const apex: V2 = [xc, yt - hRoof];
  const ov = w * 0.06;
  const xs = side > 0 ? x1 : x0;
  const win: Win = { glassTop: mix(sky.top, '#ffffff', 0.35), glassBottom: shade(sky.top, -0.45), frame: trim };
  let s = ell(xc + ox * 0.5, yb + 6, w * 0.8 + Math.abs(ox) * 0.5, w * 0.09, soft(ctx, '#3b3326', 0.2), fo(0.45));
  // side wall with planks and a window, drawn in the wall's own sheared space
  s += poly(
    [
      [xs, yb],
      [xs, yt],
      [xs + ox, yt + oy],
      [xs + ox, yb + oy],
    ],
    shade(wall, -0.3),
  );
  const k = oy / ox;
  let sideIn = '';
  for (let y = yt + 12; y < yb; y += 13) sideIn += rect(Math.min(0, ox), y, Math.abs(ox), 1.3, '#000000', fo(0.12));
  const sw = Math.abs(ox) * 0.28;
  const sx = side > 0 ? Math.abs(ox) * 0.45 : -Math.abs(ox) * 0.45 - sw;
  sideIn += windowSvg(
    ctx,
    sx,
    yt + hWall * 0.28,
    sw,
    hWall * 0.36,
    { ...win, glassTop: shade(win.glassTop, -0.2), frame: shade(trim, -0.25) },
    false,
  );
  s += `<g transform="matrix(1 ${k.toFixed(4)} 0 1 0 ${f1(-xs * k)})">${sideIn}</g>`;
  // roof plane
  const eave: V2 = side > 0 ? [x1 + ov, yt + ov * 0.55] : [x0 - ov, yt + ov * 0.55];
  s += poly(
    [apex, eave, [eave[0] + ox, eave[1] + oy], [apex[0] + ox, apex[1] + oy]],
    lin(ctx, [
      [0, shade(roof, 0.18)],
      [1, shade(roof, -0.1)],
    ]),
  );
  for (let i = 1; i < 9; i++) {
    const t = i / 9;
    s += line(
      [apex[0] + ox * t, apex[1] + oy * t],
      [eave[0] + ox * t, eave[1] + oy * t],
      shade(roof, -0.3),
      2,
      so(0.45),
    );
  }
  s += line(eave, [eave[0] + ox, eave[1] + oy], shade(roof, -0.4), 4);
  // front gable wall with planks
  const front: V2[] = [[x0, yb], [x0, yt], apex, [x1, yt], [x1, yb]];
  s += poly(
    front,
    lin(
      ctx,
      [
        [0, shade(wall, 0.1)],
        [1, shade(wall, -0.06)],
      ],
      0,
      0,
      1,
      0,
    ),
  );
  const clipId = newId(ctx, 'c');
  ctx.defs.push(`<clipPath id="${clipId}"><polygon points="${pts(front)}"/></clipPath>`);
  let planks = '';
  for (let y = apex[1] + 14; y < yb; y += 13) planks += rect(x0, y, w, 1.3, '#000000', fo(0.13));
  planks += poly(
    [
      [x0, yt + 16],
      [xc, apex[1] + 22],
      [x1, yt + 16],
      [x1, yt],
      [xc, apex[1]],
      [x0, yt],
    ],
    '#000000',
    fo(0.16),
  );
  planks += rect(
    x0,
    apex[1],
    w,
    yb - apex[1],
    lin(
      ctx,
      [
        [0, '#fff4dc', sunLeft ? 0.14 : 0],
        [1, '#fff4dc', sunLeft ? 0 : 0.14],
      ],
      0,
      0,
      1,
      0,
    ),
  );
  s += `<g clip-path="url(#${clipId})">${planks}</g>`;
  s += polyline([[x0 - ov, yt + ov * 0.55], apex, [x1 + ov, yt + ov * 0.55]], trim, w * 0.025);
  if (r.chance(0.6)) {
    const gw = w * 0.14;
    s += windowSvg(ctx, xc - gw / 2, yt - hRoof * 0.55, gw, gw * 0.8, win, false);
  }
  // door and windows
  const doorW = w * 0.17;
  const doorX = xc + r.range(-0.25, 0.1) * w;
  const doorH = hWall * 0.72;
  s += rect(doorX - 4, yb - doorH - 4, doorW + 8, doorH + 4, trim);
  s += rect(
    doorX,
    yb - doorH,
    doorW,
    doorH,
    lin(ctx, [
      [0, shade(wall, -0.35)],
      [1, shade(wall, -0.5)],
    ]),
  );
  s += rect(
    doorX + doorW * 0.2,
    yb - doorH * 0.85,
    doorW * 0.6,
    doorH * 0.35,
    lin(ctx, [
      [0, win.glassTop],
      [1, win.glassBottom],
    ]),
  );
  s += ell(doorX + doorW * 0.82, yb - doorH * 0.45, 3, 3, '#d9c9a0');
  const ww = w * 0.2;
  for (const wx of [x0 + w * 0.08, x1 - w * 0.08 - ww]) {
    if (wx + ww > doorX - 10 && wx < doorX + doorW + 10) continue;
    s += windowSvg(ctx, wx, yt + hWall * 0.22, ww, hWall * 0.4, win);
  }
  // porch deck and steps
  const pd = hWall * 0.14;
  s += rect(x0 - w * 0.06, yb - 2, w * 1.12, pd, shade(wall, -0.25));
  s += rect(x0 - w * 0.06, yb - 2, w * 1.12, 4, shade(wall, 0.15));
  s += rect(doorX - 10, yb + pd - 2, doorW + 20, pd * 0.6, shade(wall, -0.12));
  return s;
}

/** A seaside apartment block with balconies. */
function apartments(ctx: Ctx, x0: number, yb: number, w: number, floors: number, sky: Sky, sunLeft: boolean): string {
  const r = ctx.r;
  const wall = vary(r, r.pick(['#efe6d6', '#e9dcc6', '#f2e2cf', '#e4e3dc', '#ead7c0']), 6);
  const accent = vary(r, r.pick(['#b77b5a', '#6f8fa3', '#8aa39b', '#c49a6c']), 6);
  const fh = r.range(62, 80);
  const h = floors * fh + 30;
  const yt = yb - h;
  const side = sunLeft ? 1 : -1;
  const ox = w * 0.22 * side;
  const oy = -w * 0.07;
  const xs = side > 0 ? x0 + w : x0;
  let s = ell(x0 + w / 2, yb, w * 0.7, 30, soft(ctx, '#3b3326', 0.2), fo(0.35));
  s += poly(
    [
      [xs, yb],
      [xs, yt],
      [xs + ox, yt + oy],
      [xs + ox, yb + oy],
    ],
    shade(wall, -0.28),
  );
  s += poly(
    [
      [x0, yt],
      [x0 + w, yt],
      [x0 + w + ox, yt + oy],
      [x0 + ox, yt + oy],
    ],
    shade(wall, -0.1),
  );
  s += rect(
    x0,
    yt,
    w,
    h,
    lin(
      ctx,
      [
        [0, shade(wall, 0.06)],
        [1, shade(wall, -0.06)],
      ],
      0,
      0,
      1,
      0,
    ),
  );
  s += rect(x0 - 4, yt - 8, w + 8, 10, shade(wall, -0.15));
  const cols = Math.max(3, Math.round(w / r.range(95, 130)));
  const cw = w / cols;
  const glass = lin(ctx, [
    [0, mix(sky.top, '#ffffff', 0.3)],
    [1, shade(sky.top, -0.5)],
  ]);
  for (let f = 0; f < floors; f++) {
    const fy = yt + 24 + f * fh;
    for (let c = 0; c < cols; c++) {
      const cx = x0 + c * cw;
      s += rect(cx + cw * 0.18, fy + fh * 0.1, cw * 0.64, fh * 0.62, glass);
      if (r.chance(0.25))
        s += rect(
          cx + cw * 0.18,
          fy + fh * 0.1,
          cw * r.range(0.2, 0.4),
          fh * 0.62,
          mix(accent, '#ffffff', 0.5),
          fo(0.85),
        );
      s += rect(cx + cw * 0.08, fy + fh * 0.7, cw * 0.84, fh * 0.07, shade(wall, -0.05));
      s += rect(cx + cw * 0.08, fy + fh * 0.77, cw * 0.84, fh * 0.05, '#000000', fo(0.15));
      s += rect(cx + cw * 0.1, fy + fh * 0.5, cw * 0.8, fh * 0.2, accent, fo(0.55));
      s += rect(cx + cw * 0.1, fy + fh * 0.49, cw * 0.8, 3, shade(accent, 0.3));
    }
  }
  s += rect(x0, yb - fh * 0.9, w, fh * 0.9, shade(wall, -0.12));
  return s;
}

// ---------------------------------------------------------------------------------------------
// Scenes

type Scene = { svg: string; warmth: number };

function seaPalette(r: Rand, sky: Sky): { far: string; near: string } {
  const base = r.pick([
    ['#8fb4bd', '#2f6d80'],
    ['#9bbcc0', '#3d7c86'],
    ['#86aac0', '#2b5f7e'],
    ['#a3c2bf', '#4a8a8a'],
    ['#8db1b8', '#35707a'],
    ['#98b8b4', '#3f7a78'],
  ] as const);
  return { far: mix(vary(r, base[0], 6), sky.horizon, 0.25), near: vary(r, base[1], 8) };
}

function birds(ctx: Ctx, horizon: number, color = '#3b4650'): string {
  const r = ctx.r;
  if (!r.chance(0.45)) return '';
  let d = '';
  const n = r.int(1, 5);
  const cx = r.range(0.15, 0.85) * W;
  const cy = horizon * r.range(0.2, 0.7);
  for (let i = 0; i < n; i++) {
    const x = cx + r.range(-140, 140);
    const y = cy + r.range(-60, 60);
    const s = r.range(5, 12);
    d += `M${f1(x - s)},${f1(y - s * 0.3)} Q${f1(x - s * 0.4)},${f1(y - s * 0.5)} ${f1(x)},${f1(y)} Q${f1(x + s * 0.4)},${f1(y - s * 0.5)} ${f1(x + s)},${f1(y - s * 0.35)} `;
  }
  return `<path d="${d}" fill="none" stroke="${color}" stroke-width="1.8" stroke-linecap="round"${so(0.7)}/>`;
}

/** A wooden jetty running out to sea from the bottom of the frame. */
function jetty(ctx: Ctx, horizon: number, seaBottom: number, sky: Sky): string {
  const r = ctx.r;
  const wood = vary(r, r.pick(['#8d7058', '#7a6350', '#9a8068']), 6);
  const vx = r.range(0.3, 0.7) * W;
  const endY = horizon + (seaBottom - horizon) * r.range(0.12, 0.3);
  const k = (endY - horizon) / (H - horizon);
  const bx0 = vx - r.range(0.2, 0.35) * W;
  const bx1 = bx0 + r.range(0.25, 0.35) * W;
  const P = (x: number, t: number): V2 => {
    const kk = k + (1 - k) * t; // t 0 = far end, 1 = bottom of the frame
    return [vx + (x - vx) * kk, horizon + (H - horizon) * kk];
  };
  let s = '';
  for (let i = 0; i <= 12; i++) {
    const t = (i / 12) ** 1.6;
    for (const x of [bx0, bx1]) {
      const [px, py] = P(x, t);
      const pw = 4 + t * 18;
      s += rect(px - pw / 2, py - 2, pw, pw * 1.6 + 6, shade(wood, -0.35));
      s += ell(px, py + pw * 1.6 + 4, pw * 1.6, pw * 0.3, mix(sky.top, '#ffffff', 0.5), fo(0.35));
    }
  }
  s += poly([P(bx0, 0), P(bx1, 0), P(bx1, 1), P(bx0, 1)], wood);
  const boards = 60;
  for (let i = 0; i < boards; i++) {
    const t = (i / boards) ** 1.8;
    s += line(P(bx0, t), P(bx1, t), shade(wood, -0.35), 0.6 + t * 3, so(0.6));
  }
  s += poly(
    [P(bx0, 0), P(bx1, 0), P(bx1, 1), P(bx0, 1)],
    lin(ctx, [
      [0, '#ffffff', 0.15],
      [1, '#000000', 0.1],
    ]),
  );
  return s;
}

function sceneSea(ctx: Ctx): Scene {
  const r = ctx.r;
  const horizon = H * r.range(0.4, 0.56);
  const { svg: skySvg, sky } = daySky(ctx, horizon);
  const sp = seaPalette(r, sky);
  let s = skySvg;
  if (r.chance(0.55)) s += farCoast(ctx, horizon, mix(sky.horizon, '#6f8796', 0.45));
  const variant = r.pick(['beach', 'beach', 'open', 'jetty'] as const);
  const edge = variant === 'beach' ? H * r.range(0.8, 0.92) : H + 30;
  s += sea(ctx, {
    horizon,
    bottom: Math.min(edge + 20, H),
    far: sp.far,
    near: sp.near,
    sunX: sky.sunX,
    glint: '#fffdf2',
    glintAmount: r.range(0.4, 1),
    haze: sky.horizon,
  });
  const boats = r.int(0, 2);
  for (let i = 0; i < boats; i++) {
    const bx = r.range(0.1, 0.9) * W;
    const by = horizon + r.range(3, 20);
    const bs = r.range(8, 20);
    s +=
      poly(
        [
          [bx - bs, by],
          [bx + bs, by],
          [bx + bs * 0.7, by + bs * 0.3],
          [bx - bs * 0.8, by + bs * 0.3],
        ],
        '#f2f2ee',
      ) + rect(bx - bs * 0.3, by - bs * 0.5, bs * 0.6, bs * 0.5, '#dfe3e4');
  }
  if (variant === 'beach') s += beach(ctx, edge, sand(r), sp.near);
  if (variant === 'jetty') s += jetty(ctx, horizon, H, sky);
  s += birds(ctx, horizon);
  return { svg: s, warmth: r.range(0, 0.3) };
}

function parasol(ctx: Ctx, x: number, y: number, sc: number, c1: string, c2: string, sd: Sand, sunDx: number): string {
  const r = ctx.r;
  const R = 130 * sc;
  const ph = 210 * sc;
  const tilt = r.range(-0.12, 0.12);
  const tx = x + tilt * ph;
  const ty = y - ph;
  let s = ell(x + sunDx * R * 0.6, y + R * 0.15, R * 1.1, R * 0.25, soft(ctx, shade(sd.dark, -0.35), 0.35), fo(0.45));
  // lounger
  const lx = x + r.range(-0.9, 0.2) * R;
  const lw = R * 1.3;
  const lc = r.pick(['#f4f1ea', '#e9dcc4', c2]);
  s += ell(
    lx + lw * 0.55 + sunDx * 20 * sc,
    y + R * 0.3,
    lw * 0.7,
    R * 0.08,
    soft(ctx, shade(sd.dark, -0.3), 0.3),
    fo(0.4),
  );
  s +=
    rect(lx, y + R * 0.18, R * 0.04, R * 0.12, '#7d6a55') + rect(lx + lw, y + R * 0.18, R * 0.04, R * 0.12, '#7d6a55');
  s += poly(
    [
      [lx, y + R * 0.05],
      [lx + lw, y + R * 0.05],
      [lx + lw * 1.06, y + R * 0.2],
      [lx - lw * 0.04, y + R * 0.2],
    ],
    shade(lc, 0.05),
  );
  s += rect(lx - lw * 0.04, y + R * 0.2, lw * 1.1, R * 0.04, shade(lc, -0.2));
  s += poly(
    [
      [lx + lw, y + R * 0.05],
      [lx + lw * 1.25, y - R * 0.28],
      [lx + lw * 1.33, y - R * 0.22],
      [lx + lw * 1.08, y + R * 0.2],
    ],
    shade(lc, -0.1),
  );
  // pole and canopy
  s += line([x, y], [tx, ty], '#8a7158', Math.max(2, 6 * sc));
  const segs = 8;
  const rim = ty + 30 * sc;
  for (let i = 0; i < segs; i++) {
    const a0 = Math.PI + (i / segs) * Math.PI;
    const a1 = Math.PI + ((i + 1) / segs) * Math.PI;
    const col = i % 2 ? c1 : c2;
    s += poly(
      [
        [tx, ty - R * 0.3],
        [tx + Math.cos(a0) * R, rim - Math.sin(a0) * R * 0.12],
        [tx + Math.cos(a1) * R, rim - Math.sin(a1) * R * 0.12],
      ],
      shade(col, (i / segs - 0.5) * -0.25),
    );
  }
  s += `<path d="M${f1(tx - R)},${f1(rim)} Q${f1(tx)},${f1(rim + 28 * sc)} ${f1(tx + R)},${f1(rim)}" fill="none" stroke="${shade(c2, -0.25)}" stroke-width="${f1(3 * sc)}"/>`;
  s += poly(
    [
      [tx, ty - R * 0.3],
      [tx - R, rim],
      [tx + R, rim],
    ],
    lin(
      ctx,
      [
        [0, '#000000', sunDx < 0 ? 0 : 0.15],
        [1, '#000000', sunDx < 0 ? 0.15 : 0],
      ],
      0,
      0,
      1,
      0,
    ),
  );
  return s;
}

function sceneBeach(ctx: Ctx): Scene {
  const r = ctx.r;
  const horizon = H * r.range(0.33, 0.42);
  const { svg: skySvg, sky } = daySky(ctx, horizon);
  const sp = seaPalette(r, sky);
  const sd = sand(r);
  const g = greens(r);
  let s = skySvg;
  if (r.chance(0.4)) s += farCoast(ctx, horizon, mix(sky.horizon, '#6f8796', 0.45));
  const edge = horizon + (H - horizon) * r.range(0.2, 0.36);
  s += sea(ctx, {
    horizon,
    bottom: edge + 20,
    far: sp.far,
    near: mix(sp.near, sp.far, 0.3),
    sunX: sky.sunX,
    glint: '#fffdf2',
    glintAmount: r.range(0.3, 0.8),
    haze: sky.horizon,
  });
  s += beach(ctx, edge, sd, sp.near);
  const duneLeft = r.chance(0.5);
  if (r.chance(0.7))
    s += dune(
      ctx,
      edge + (H - edge) * r.range(0.25, 0.45),
      duneLeft,
      r.range(0.3, 0.5),
      r.range(120, 260),
      sd,
      mix(g.mid, '#a59a5c', 0.35),
    );
  const sunDx = sky.sunX < W / 2 ? 1 : -1;
  const cols = r.pick([
    ['#f2efe6', '#2f6f8a'],
    ['#f4efe4', '#c8553d'],
    ['#efe9dc', '#d9a441'],
    ['#f2efe6', '#5d8a6a'],
    ['#e9e2d2', '#d8cdb8'],
    ['#f2efe6', '#4a7fa6'],
  ] as const);
  const items: { x: number; y: number }[] = [];
  const n = r.int(1, 4);
  for (let i = 0; i < n; i++) items.push({ x: r.range(0.08, 0.92) * W, y: edge + (H - edge) * r.range(0.3, 0.8) });
  items.sort((a, b) => a.y - b.y);
  for (const it of items)
    s += parasol(ctx, it.x, it.y, 0.4 + ((it.y - edge) / (H - edge)) * 1.2, cols[0], cols[1], sd, sunDx);
  s += birds(ctx, horizon);
  return { svg: s, warmth: r.range(0.05, 0.35) };
}

function sceneSunset(ctx: Ctx): Scene {
  const r = ctx.r;
  const horizon = H * r.range(0.5, 0.62);
  const top = vary(r, r.pick(['#3d4f7c', '#4a4f80', '#35507a', '#56517e', '#44587f']), 6);
  const mid = vary(r, r.pick(['#c07a8a', '#b9718a', '#d08a7e', '#a97a9a', '#c98a7a']), 8);
  const low = vary(r, r.pick(['#f39a55', '#f2a65e', '#ee8c50', '#f5b06a']), 6);
  const hor = vary(r, r.pick(['#ffd595', '#ffdca0', '#ffcf88']), 4);
  const sunX = r.range(0.25, 0.75) * W;
  const sunR = r.range(26, 50);
  const sunY = horizon - r.range(-sunR * 0.5, sunR * 3);
  let s = rect(
    0,
    0,
    W,
    horizon + 2,
    lin(
      ctx,
      [
        [0, top],
        [0.45, mid],
        [0.8, low],
        [1, hor],
      ],
      0,
      0,
      0,
      horizon,
      true,
    ),
  );
  s += rect(
    0,
    0,
    W,
    horizon,
    rad(
      ctx,
      [
        [0, '#fff1c8', 0.95],
        [0.15, '#ffd08a', 0.6],
        [1, '#ff9d5c', 0],
      ],
      sunX,
      sunY,
      W * 0.55,
      horizon * 0.9,
    ),
  );
  s += clouds(ctx, horizon, mix(low, '#ffe6c0', 0.45), mix(top, mid, 0.45), r.range(0.5, 1.2));
  s += ell(sunX, sunY, sunR * 1.25, sunR * 1.25, soft(ctx, '#fff6dc', 0.72));
  const far = mix(mix(low, mid, 0.4), hor, 0.3);
  const near = shade(mix(top, '#2a3550', 0.4), -0.1);
  const edge = r.chance(0.75) ? H * r.range(0.82, 0.93) : H + 30;
  s += sea(ctx, {
    horizon,
    bottom: Math.min(edge + 20, H),
    far,
    near,
    sunX,
    glint: '#ffd9a0',
    glintAmount: r.range(1.3, 2.2),
    haze: mix(hor, low, 0.4),
  });
  if (r.chance(0.5)) s += farCoast(ctx, horizon, mix(top, mid, 0.45));
  if (edge < H) {
    const dark = mix('#3a2f3a', low, 0.12);
    const topEdge = ridge(r, -20, W + 20, edge, r.range(4, 12), 700, 20);
    s += poly(
      ridgeFill(topEdge, H + 2),
      lin(ctx, [
        [0, mix(dark, low, 0.35)],
        [0.3, mix(dark, low, 0.15)],
        [1, dark],
      ]),
    );
    s += polyline(topEdge, hor, 8, so(0.2)) + polyline(topEdge, hor, 2.5, so(0.6));
    const sil: Greens = { dark, mid: dark, light: shade(dark, 0.03), trunk: dark };
    const n = r.int(0, 3);
    for (let i = 0; i < n; i++) {
      const x = r.chance(0.5) ? r.range(-0.05, 0.18) * W : r.range(0.82, 1.05) * W;
      s += tree(ctx, r.pick(['poplar', 'pine', 'round'] as const), x, edge + 10, H * r.range(0.3, 0.6), sil);
    }
    for (let i = 0; i < 10; i++) s += grassTuft(r, r.range(0, W), edge + r.range(10, H - edge), r.range(30, 90), dark);
  }
  s += birds(ctx, horizon, '#2e2838');
  return { svg: s, warmth: r.range(0.3, 0.6) };
}

function sceneCabin(ctx: Ctx): Scene {
  const r = ctx.r;
  const horizon = H * r.range(0.38, 0.48);
  const { svg: skySvg, sky } = daySky(ctx, horizon);
  const sp = seaPalette(r, sky);
  const sd = sand(r);
  const g = greens(r);
  let s = skySvg;
  const groundY = horizon + H * r.range(0.04, 0.09);
  s += sea(ctx, {
    horizon,
    bottom: groundY + 20,
    far: sp.far,
    near: sp.near,
    sunX: sky.sunX,
    glint: '#fffdf2',
    glintAmount: 0.4,
    haze: sky.horizon,
  });
  const grassy = r.chance(0.55);
  const groundCol = grassy ? mix(mix(g.light, sd.light, 0.5), '#c8c49a', 0.3) : sd.light;
  // far tree line, hazed, and a haze band fusing its foot
  const gFar = hazed(g, sky.horizon, 0.45);
  const farKind = r.pick(['pine', 'round', 'poplar'] as const);
  for (let x = -40; x < W + 40; x += r.range(30, 90)) {
    if (r.chance(0.85))
      s += tree(
        ctx,
        r.chance(0.7) ? farKind : r.pick(['pine', 'round', 'poplar'] as const),
        x,
        groundY + 8,
        H * r.range(0.06, 0.17),
        gFar,
      );
  }
  s += rect(
    0,
    groundY - H * 0.08,
    W,
    H * 0.1,
    lin(ctx, [
      [0, sky.horizon, 0],
      [1, sky.horizon, 0.45],
    ]),
  );
  const groundTop = ridge(r, -20, W + 20, groundY, 5, 600, 20);
  s += poly(
    ridgeFill(groundTop, H + 2),
    lin(
      ctx,
      [
        [0, shade(groundCol, -0.08)],
        [0.25, groundCol],
        [1, shade(groundCol, -0.1)],
      ],
      0,
      groundY,
      0,
      H,
      true,
    ),
  );
  // ground texture: flattened patches of lighter and darker ground
  for (let i = 0; i < 26; i++) {
    const t = r.next();
    const y = groundY + (H - groundY) * (0.05 + t * 0.95);
    const rx = 60 + t * 260 * r.range(0.5, 1.2);
    s += ell(
      r.range(-50, W + 50),
      y,
      rx,
      rx * (0.08 + t * 0.1),
      soft(ctx, r.chance(0.5) ? shade(groundCol, 0.12) : shade(groundCol, -0.12), 0.2),
      fo(0.7),
    );
  }
  const sunLeft = sky.sunX < W / 2;
  const apt = r.chance(0.2);
  if (apt) {
    const w = W * r.range(0.4, 0.6);
    s += apartments(
      ctx,
      r.range(0.05, 0.95 - w / W) * W,
      groundY + H * r.range(0.25, 0.35),
      w,
      r.int(5, 8),
      sky,
      sunLeft,
    );
  }
  const treeKind = r.pick(['pine', 'round', 'poplar'] as const);
  const nTrees = r.int(2, 5);
  const gMid = hazed(g, sky.horizon, 0.15);
  for (let i = 0; i < nTrees; i++)
    s += tree(
      ctx,
      r.chance(0.7) ? treeKind : 'round',
      r.range(0, W),
      groundY + H * r.range(0.1, 0.18),
      H * r.range(0.35, 0.55),
      gMid,
    );
  // grass (or sparse dune grass) in depth order around the main cabin
  const mainY = apt ? groundY : H * r.range(0.78, 0.86);
  const tufts: [number, number, number, string][] = [];
  const nTufts = grassy ? 60 : 18;
  for (let i = 0; i < nTufts; i++) {
    const y = groundY + (H - groundY) * r.range(0.15, 1);
    tufts.push([
      r.range(0, W),
      y,
      (6 + ((y - groundY) / (H - groundY)) * 45) * r.range(0.6, 1.2),
      grassy ? mix(g.mid, g.dark, r.next()) : mix(mix(g.mid, '#a59a5c', 0.4), sd.dark, r.next() * 0.5),
    ]);
  }
  tufts.sort((a, b) => a[1] - b[1]);
  for (const [x, y, size, c] of tufts) if (y < mainY) s += grassTuft(r, x, y, size, c, 0.8);
  if (!apt) {
    if (r.chance(0.4)) s += cabin(ctx, r.chance(0.5) ? W * 0.18 : W * 0.82, groundY + H * 0.18, W * 0.15, sky, sunLeft);
    const cx = W * r.range(0.38, 0.62);
    // a sandy path from the porch towards the viewer
    if (grassy)
      s += poly(
        [
          [cx - W * 0.05, mainY + 30],
          [cx + W * 0.05, mainY + 30],
          [cx + W * 0.1 + r.range(-60, 120), H + 5],
          [cx - W * 0.1 + r.range(-120, 60), H + 5],
        ],
        lin(ctx, [
          [0, sd.light, 0.7],
          [1, sd.mid, 0.9],
        ]),
      );
    s += cabin(ctx, cx, mainY, W * r.range(0.26, 0.36), sky, sunLeft);
  }
  for (const [x, y, size, c] of tufts) if (y >= mainY) s += grassTuft(r, x, y, size, c, 0.8);
  if (!grassy)
    s += dune(ctx, H * 0.9, r.chance(0.5), r.range(0.25, 0.4), r.range(60, 140), sd, mix(g.mid, '#a59a5c', 0.4));
  if (r.chance(0.6))
    s += tree(
      ctx,
      treeKind,
      r.chance(0.5) ? r.range(-0.04, 0.06) * W : r.range(0.94, 1.04) * W,
      H + 20,
      H * r.range(0.85, 1.15),
      g,
    );
  return { svg: s, warmth: r.range(0.05, 0.35) };
}

function sceneTerrace(ctx: Ctx): Scene {
  const r = ctx.r;
  const horizon = H * r.range(0.3, 0.42);
  const { svg: skySvg, sky } = daySky(ctx, horizon);
  const sp = seaPalette(r, sky);
  const deckFar = H * r.range(0.6, 0.7);
  let s = skySvg;
  s += sea(ctx, {
    horizon,
    bottom: deckFar,
    far: sp.far,
    near: sp.near,
    sunX: sky.sunX,
    glint: '#fffdf2',
    glintAmount: 0.7,
    haze: sky.horizon,
  });
  if (r.chance(0.5)) s += beach(ctx, horizon + (deckFar - horizon) * r.range(0.55, 0.8), sand(r), sp.near);
  const wood = vary(r, r.pick(['#a77b52', '#b58b60', '#8f6a4a', '#c49c70', '#9c7b5c', '#a89078']), 8);
  const rail = r.chance(0.5) ? vary(r, '#f0ece4', 4) : shade(wood, -0.05);
  // deck planks converging on a vanishing point at the horizon
  const vpX = r.range(0.3, 0.7) * W;
  const k = (deckFar - horizon) / (H - horizon);
  let deck = rect(0, deckFar, W, H - deckFar, shade(wood, -0.1));
  const pw = r.range(60, 90);
  for (let xb = -W * 2; xb < W * 3; xb += pw) {
    const a: V2 = [vpX + (xb - vpX) * k, deckFar];
    const b: V2 = [vpX + (xb + pw - vpX) * k, deckFar];
    if (Math.max(a[0], xb) < -pw || Math.min(b[0], xb + pw) > W + pw) continue;
    deck += poly([a, b, [xb + pw, H], [xb, H]], shade(vary(r, wood, 7), r.range(-0.05, 0.05)));
    deck += line(a, [xb, H], shade(wood, -0.45), 2.5, so(0.55));
  }
  deck += rect(
    0,
    deckFar,
    W,
    H - deckFar,
    lin(ctx, [
      [0, '#000000', 0.14],
      [0.4, '#000000', 0],
      [1, '#000000', 0.22],
    ]),
  );
  s += deck;
  // railing, its shadows falling towards us (the sun is beyond it)
  const railTop = deckFar - (deckFar - horizon) * r.range(0.35, 0.55);
  const bw = r.range(10, 16);
  const gap = r.range(34, 56);
  const skew = r.range(-120, 120);
  let rs = '';
  let shadows = '';
  const postGrad = lin(
    ctx,
    [
      [0, shade(rail, 0.05)],
      [1, shade(rail, -0.18)],
    ],
    0,
    0,
    1,
    0,
  );
  const glass = r.chance(0.3);
  if (glass) {
    rs += rect(
      0,
      railTop,
      W,
      deckFar - railTop,
      lin(ctx, [
        [0, '#e8f3f3', 0.28],
        [1, '#d5e6e8', 0.18],
      ]),
    );
    for (let x = r.range(-100, 0); x < W; x += r.range(220, 300))
      rs += poly(
        [
          [x + 30, deckFar],
          [x + 90, railTop],
          [x + 110, railTop],
          [x + 50, deckFar],
        ],
        '#ffffff',
        fo(0.12),
      );
  } else {
    for (let x = -gap; x < W + gap; x += gap) {
      rs += rect(x, railTop, bw, deckFar - railTop, postGrad);
      shadows += poly(
        [
          [x, deckFar],
          [x + bw, deckFar],
          [x + bw + skew, deckFar + 160],
          [x + skew, deckFar + 160],
        ],
        '#2e241a',
        fo(0.13),
      );
    }
  }
  s += shadows;
  const postGap = glass ? r.range(240, 320) : gap * r.int(5, 8);
  for (let x = r.range(0, postGap); x < W; x += postGap)
    rs += rect(x - 8, railTop - 14, bw + 16, deckFar - railTop + 14, shade(rail, -0.08));
  rs += rect(
    0,
    railTop - 16,
    W,
    18,
    lin(ctx, [
      [0, shade(rail, 0.15)],
      [1, shade(rail, -0.1)],
    ]),
  );
  rs += rect(0, railTop + 2, W, 5, '#000000', fo(0.15));
  rs += rect(0, deckFar - 16, W, 16, shade(rail, -0.12));
  s += rs;
  // furniture
  const chairCol = vary(r, r.pick(['#f1ede6', '#6b4f3a', '#3f4a52', '#c9b18b', '#e8e0d0']), 6);
  const cushion = vary(r, r.pick(['#e9e2d3', '#2f6f8a', '#d4a058', '#8aa89a', '#c66a4f']), 6);
  const tx = r.range(0.3, 0.7) * W;
  const ty = H * r.range(0.84, 0.9);
  s += ell(tx + skew * 0.5, ty + 20, 330, 55, soft(ctx, '#2e241a', 0.3), fo(0.35));
  s += chair(tx - r.range(190, 260), ty + 10, chairCol, cushion, 1);
  s += table(ctx, tx, ty, chairCol);
  s += chair(tx + r.range(190, 260), ty + 10, chairCol, cushion, -1);
  if (r.chance(0.7))
    s += plant(
      ctx,
      r.chance(0.5) ? r.range(0.03, 0.14) * W : r.range(0.86, 0.97) * W,
      H * r.range(0.8, 0.92),
      r.range(0.9, 1.3),
    );
  // the edge of a pergola / awning overhead, for depth
  if (r.chance(0.4)) {
    const aw = vary(r, r.pick(['#efe6d6', '#d9c3a0', '#b7c9c9']), 6);
    const y0 = r.range(0.04, 0.1) * H;
    s += poly(
      [
        [0, 0],
        [W, 0],
        [W, y0],
        [0, y0 + r.range(-20, 20)],
      ],
      lin(ctx, [
        [0, shade(aw, -0.25)],
        [1, aw],
      ]),
    );
    for (let x = r.range(0, 120); x < W; x += 120) s += rect(x, y0 - 4, 14, 8, shade(aw, -0.35));
  } else if (r.chance(0.5)) {
    // festoon lights strung across the top of the frame
    const y0 = r.range(0.02, 0.12) * H;
    const y1 = y0 + r.range(-40, 40);
    const sag = r.range(60, 140);
    const at = (t: number): V2 => [-20 + (W + 40) * t, y0 + (y1 - y0) * t + sag * 4 * t * (1 - t)];
    const wire: V2[] = [];
    for (let i = 0; i <= 40; i++) wire.push(at(i / 40));
    s += polyline(wire, '#3a342e', 2);
    for (let i = 1; i < 16; i++) {
      const [x, y] = at(i / 16);
      s += ell(x, y + 12, 26, 26, soft(ctx, '#ffd58a', 0.05), fo(0.5)) + ell(x, y + 12, 6, 8, '#fff2c8');
    }
  }
  return { svg: s, warmth: r.range(0.1, 0.4) };
}

function chair(x: number, y: number, col: string, cushion: string, facing: number): string {
  const w = 150;
  const legH = 110;
  const leg = shade(col, -0.2);
  let s = rect(x - w / 2, y - legH, 8, legH, leg) + rect(x + w / 2 - 8, y - legH, 8, legH, leg);
  s +=
    rect(x - w / 2 + 18 * facing, y - legH, 7, legH - 16, shade(leg, -0.2)) +
    rect(x + w / 2 - 25 + 18 * facing, y - legH, 7, legH - 16, shade(leg, -0.2));
  s += poly(
    [
      [x - w / 2, y - legH],
      [x + w / 2, y - legH],
      [x + w / 2 + 20 * facing, y - legH - 30],
      [x - w / 2 + 20 * facing, y - legH - 30],
    ],
    shade(col, 0.05),
  );
  s += rect(x - w / 2, y - legH, w, 12, shade(col, -0.1));
  s += poly(
    [
      [x - w / 2 + 8, y - legH - 6],
      [x + w / 2 - 8, y - legH - 6],
      [x + w / 2 + 12 * facing, y - legH - 28],
      [x - w / 2 + 28 * facing, y - legH - 28],
    ],
    cushion,
  );
  const bx = x + 24 * facing;
  s += poly(
    [
      [bx - w / 2, y - legH - 30],
      [bx + w / 2, y - legH - 30],
      [bx + w / 2 + 14 * facing, y - legH - 170],
      [bx - w / 2 + 14 * facing, y - legH - 170],
    ],
    shade(col, -0.08),
  );
  for (let i = 1; i < 4; i++)
    s += rect(bx - w / 2 + 6, y - legH - 30 - (140 * i) / 4, w - 12, 3, shade(col, -0.25), fo(0.5));
  s += poly(
    [
      [bx - w / 2 + 10, y - legH - 36],
      [bx + w / 2 - 10, y - legH - 36],
      [bx + w / 2 + 8 * facing, y - legH - 140],
      [bx - w / 2 + 8 * facing, y - legH - 140],
    ],
    shade(cushion, -0.05),
    fo(0.92),
  );
  return s;
}

function table(ctx: Ctx, x: number, y: number, col: string): string {
  const r = ctx.r;
  const R = 120;
  const th = 125;
  let s = rect(x - 6, y - th, 12, th, shade(col, -0.3)) + ell(x, y - 2, 50, 10, shade(col, -0.3));
  s +=
    ell(x, y - th + 6, R, 26, shade(col, -0.25)) +
    ell(
      x,
      y - th,
      R,
      26,
      lin(ctx, [
        [0, shade(col, 0.1)],
        [1, shade(col, -0.05)],
      ]),
    );
  const gx = x - r.range(30, 70);
  s +=
    rect(gx - 9, y - th - 44, 18, 40, '#e8f0f0', fo(0.55)) +
    rect(gx - 9, y - th - 24, 18, 20, r.pick(['#e3b04b', '#c44e3a', '#f0e0b0']), fo(0.75));
  const cx = x + r.range(10, 60);
  s += rect(cx - 12, y - th - 22, 24, 20, '#f6f3ee') + ell(cx, y - th - 22, 12, 4, '#6b4a32');
  if (r.chance(0.6)) {
    const bx = x + r.range(-20, 20);
    s += ell(bx, y - th - 6, 34, 10, '#d9d2c4');
    for (let i = 0; i < 4; i++)
      s += ell(bx - 18 + i * 12, y - th - 14 - (i % 2) * 4, 9, 9, r.pick(['#e08a3a', '#c9452e', '#9bb24a', '#e6c14a']));
  }
  return s;
}

function plant(ctx: Ctx, x: number, y: number, sc: number): string {
  const r = ctx.r;
  const pot = vary(r, r.pick(['#b8704c', '#d9d2c6', '#6d6f70', '#c7a27a']), 6);
  const g = greens(r);
  let s = poly(
    [
      [x - 45 * sc, y - 90 * sc],
      [x + 45 * sc, y - 90 * sc],
      [x + 32 * sc, y],
      [x - 32 * sc, y],
    ],
    lin(
      ctx,
      [
        [0, shade(pot, 0.1)],
        [1, shade(pot, -0.2)],
      ],
      0,
      0,
      1,
      0,
    ),
  );
  s += rect(x - 49 * sc, y - 100 * sc, 98 * sc, 14 * sc, shade(pot, -0.05));
  for (let i = 0; i < 16; i++) {
    const a = r.range(-1.3, 1.3);
    const len = r.range(70, 150) * sc;
    const lx = x + Math.sin(a) * len;
    const ly = y - 100 * sc - Math.cos(a) * len;
    s += path(
      `M${f1(x)},${f1(y - 95 * sc)} Q${f1(x + Math.sin(a) * len * 0.2 - 20 * sc)},${f1(ly + 40 * sc)} ${f1(lx)},${f1(ly)} Q${f1(x + Math.sin(a) * len * 0.6 + 20 * sc)},${f1(ly + 50 * sc)} ${f1(x)},${f1(y - 95 * sc)}Z`,
      r.pick([g.mid, g.dark, g.light]),
    );
  }
  return s;
}

function sceneInterior(ctx: Ctx): Scene {
  const r = ctx.r;
  const bx0 = W * r.range(0.14, 0.26);
  const bx1 = W * (1 - r.range(0.14, 0.26));
  const by0 = H * r.range(0.06, 0.14);
  const by1 = H * r.range(0.6, 0.68);
  const bw = bx1 - bx0;
  const bh = by1 - by0;
  const V: V2 = [bx0 + bw * r.range(0.4, 0.6), by0 + bh * r.range(0.42, 0.55)];
  /** Scale a point of the back-wall plane towards the viewer (s > 1) about the vanishing point. */
  const P = (x: number, y: number, s: number): V2 => [V[0] + (x - V[0]) * s, V[1] + (y - V[1]) * s];
  const S = 6;
  const lined = r.chance(0.4); // a wood-lined cabin room (вагонка) rather than painted walls
  const wallCol = lined
    ? vary(r, r.pick(['#d8b68a', '#e0c297', '#cfa97c', '#e4cfae']), 6)
    : vary(r, r.pick(['#efe7da', '#f1e9dc', '#e9e4da', '#eadfcd', '#e4e8e4', '#f0e4d4', '#e6e1d3']), 5);
  const woodCol = vary(r, r.pick(['#b8895e', '#c49a6c', '#a87d56', '#caa77e', '#9c7655', '#b89a7a']), 8);
  const accent = vary(r, r.pick(['#2f6f8a', '#4f8a86', '#c98a5a', '#7d9a7a', '#d1a55b', '#8aa2b8']), 8);
  let s = '';
  // walls, ceiling
  s += rect(
    bx0,
    by0,
    bw,
    bh,
    lin(ctx, [
      [0, shade(wallCol, 0.04)],
      [1, shade(wallCol, -0.06)],
    ]),
  );
  s += poly(
    [[bx0, by0], [bx0, by1], P(bx0, by1, S), P(bx0, by0, S)],
    lin(
      ctx,
      [
        [0, shade(wallCol, -0.16)],
        [1, shade(wallCol, -0.05)],
      ],
      0,
      0,
      1,
      0,
    ),
  );
  s += poly(
    [[bx1, by0], [bx1, by1], P(bx1, by1, S), P(bx1, by0, S)],
    lin(
      ctx,
      [
        [0, shade(wallCol, -0.02)],
        [1, shade(wallCol, -0.12)],
      ],
      0,
      0,
      1,
      0,
    ),
  );
  s += poly(
    [[bx0, by0], [bx1, by0], P(bx1, by0, S), P(bx0, by0, S)],
    lin(
      ctx,
      [
        [0, shade(wallCol, 0.1)],
        [1, shade(wallCol, -0.04)],
      ],
      0,
      1,
      0,
      0,
    ),
  );
  if (lined) {
    // vertical boards on the back wall, converging boards on the side walls and ceiling
    const boardW = r.range(26, 38);
    let boards = '';
    for (let x = bx0 + boardW; x < bx1; x += boardW)
      boards += line([x, by0], [x, by1], shade(wallCol, -0.35), 1.4, so(0.45));
    for (let i = 1; i < 26; i++) {
      const sj = 1 + (i / 26) ** 1.5 * (S - 1);
      boards += line(P(bx0, by0, sj), P(bx0, by1, sj), shade(wallCol, -0.35), sj * 1.2, so(0.4));
      boards += line(P(bx1, by0, sj), P(bx1, by1, sj), shade(wallCol, -0.35), sj * 1.2, so(0.4));
    }
    for (let i = 1; i < 4; i++) {
      const sj = 1 + (i / 4) ** 1.4 * 2.2;
      const a = P(bx0, by0, sj);
      const b = P(bx1, by0, sj);
      boards += poly([a, b, [b[0], b[1] + 14 * sj], [a[0], a[1] + 14 * sj]], shade(wallCol, -0.28));
    }
    s += boards;
  }
  // soft shading in the corners
  s +=
    rect(
      bx0,
      by0,
      40,
      bh,
      lin(
        ctx,
        [
          [0, '#000000', 0.08],
          [1, '#000000', 0],
        ],
        0,
        0,
        1,
        0,
      ),
    ) +
    rect(
      bx1 - 40,
      by0,
      40,
      bh,
      lin(
        ctx,
        [
          [0, '#000000', 0],
          [1, '#000000', 0.08],
        ],
        0,
        0,
        1,
        0,
      ),
    );
  // wooden floor: planks converge on V
  const floorPoly: V2[] = [[bx0, by1], [bx1, by1], P(bx1, by1, S), P(bx0, by1, S)];
  s += poly(floorPoly, woodCol);
  const planks = r.int(10, 16);
  for (let i = 0; i < planks; i++) {
    const xa = bx0 + (bw * i) / planks;
    const xb = bx0 + (bw * (i + 1)) / planks;
    s += poly([[xa, by1], [xb, by1], P(xb, by1, S), P(xa, by1, S)], shade(vary(r, woodCol, 8), r.range(-0.06, 0.06)));
    s += line([xa, by1], P(xa, by1, S), shade(woodCol, -0.4), 1.5, so(0.5));
    for (let j = 0; j < 3; j++) {
      const sj = 1 + r.range(0.05, 4);
      s += line(P(xa, by1, sj), P(xb, by1, sj), shade(woodCol, -0.35), 1 + sj * 0.4, so(0.35));
    }
  }
  s += poly(
    floorPoly,
    lin(ctx, [
      [0, '#000000', 0.2],
      [0.5, '#000000', 0.02],
      [1, '#000000', 0.12],
    ]),
  );
  // skirting
  s += rect(bx0, by1 - 12, bw, 12, shade(wallCol, 0.1));
  s += poly([[bx0, by1 - 12], [bx0, by1], P(bx0, by1, S), P(bx0, by1 - 12, S)], shade(wallCol, -0.05));
  s += poly([[bx1, by1 - 12], [bx1, by1], P(bx1, by1, S), P(bx1, by1 - 12, S)], shade(wallCol, -0.08));

  // window onto the sea, light falling on the floor
  const winW = bw * r.range(0.3, 0.45);
  const wx = Math.max(bx0 + bw * 0.05, Math.min(bx0 + bw * r.range(0.06, 0.94) - winW / 2, bx1 - bw * 0.05 - winW));
  const wy = by0 + bh * r.range(0.12, 0.2);
  const wh = bh * r.range(0.5, 0.62);
  s += poly(
    [[wx, by1], [wx + winW, by1], P(wx + winW + 60, by1, 2.6), P(wx - 60, by1, 2.6)],
    lin(
      ctx,
      [
        [0, '#fff6de', 0.45],
        [1, '#fff6de', 0],
      ],
      0,
      by1,
      0,
      P(0, by1, 2.6)[1],
      true,
    ),
  );
  s += rect(wx - 14, wy - 14, winW + 28, wh + 28, shade(wallCol, 0.12));
  s += rect(wx - 20, wy + wh + 6, winW + 40, 14, shade(wallCol, -0.1));
  s += miniView(ctx, wx, wy, winW, wh);
  s +=
    rect(wx + winW / 2 - 5, wy, 10, wh, '#f5f2ec') +
    rect(wx, wy, winW, 10, '#f5f2ec') +
    rect(wx, wy + wh - 10, winW, 10, '#f5f2ec');
  s += ell(wx + winW / 2, wy + wh / 2, winW * 1.1, wh * 0.95, soft(ctx, '#fff8e6', 0.2), fo(0.3));
  // curtains
  const cur = vary(r, r.pick(['#f3efe6', '#e8dccb', accent, '#dfe6e6']), 5);
  for (const side of [-1, 1]) {
    const cw = 60 + r.range(0, 40);
    const cx0 = side < 0 ? wx - cw - 10 : wx + winW + 10;
    const folds = lin(
      ctx,
      [
        [0, shade(cur, -0.1)],
        [0.25, shade(cur, 0.08)],
        [0.5, shade(cur, -0.08)],
        [0.75, shade(cur, 0.06)],
        [1, shade(cur, -0.12)],
      ],
      0,
      0,
      1,
      0,
    );
    s += rect(cx0, wy - 30, cw, wh + bh * 0.12, folds, fo(0.95));
  }
  s += rect(wx - 110, wy - 36, winW + 220, 6, '#8a7a68');

  // furniture: boxes in the room's one-point perspective
  const fabric = vary(r, r.pick(['#f2eee7', '#e9e3d8', '#dcd6cc']), 4);
  const box = (
    x0: number,
    x1: number,
    yT: number,
    yB: number,
    s0: number,
    s1: number,
    c: string,
    topC = shade(c, 0.1),
  ) => {
    let o = '';
    if (x0 > V[0]) o += poly([P(x0, yT, s0), P(x0, yB, s0), P(x0, yB, s1), P(x0, yT, s1)], shade(c, -0.15));
    if (x1 < V[0]) o += poly([P(x1, yT, s0), P(x1, yB, s0), P(x1, yB, s1), P(x1, yT, s1)], shade(c, -0.15));
    if (yT > V[1]) o += poly([P(x0, yT, s0), P(x1, yT, s0), P(x1, yT, s1), P(x0, yT, s1)], topC);
    const a = P(x0, yT, s1);
    const b = P(x1, yB, s1);
    return (
      o +
      rect(
        a[0],
        a[1],
        b[0] - a[0],
        b[1] - a[1],
        lin(ctx, [
          [0, c],
          [1, shade(c, -0.12)],
        ]),
      )
    );
  };
  const roundBox = (x0: number, y0: number, x1: number, y1: number, sc: number, fill: string) => {
    const a = P(x0, y0, sc);
    const b = P(x1, y1, sc);
    return `<rect x="${f1(a[0])}" y="${f1(a[1])}" width="${f1(b[0] - a[0])}" height="${f1(b[1] - a[1])}" rx="${f1((b[1] - a[1]) * 0.35)}" fill="${fill}"/>`;
  };
  let furn = '';
  if (r.chance(0.55)) {
    const bwid = bw * r.range(0.38, 0.5);
    const x0 = Math.max(bx0 + 20, Math.min(bx0 + bw * r.range(0.3, 0.7) - bwid / 2, bx1 - 20 - bwid));
    const x1 = x0 + bwid;
    const len = r.range(0.55, 0.85);
    if (r.chance(0.6)) {
      const rug = vary(r, r.pick(['#d9cdb8', '#c4b59c', '#e4dccd', '#b7a78f', mix(accent, '#e4dccd', 0.6)]), 6);
      furn += poly(
        [
          P(x0 - 90, by1, 1.3),
          P(x1 + 90, by1, 1.3),
          P(x1 + 90, by1, 1.3 + len * 1.3),
          P(x0 - 90, by1, 1.3 + len * 1.3),
        ],
        rug,
        fo(0.92),
      );
    }
    const fc = P((x0 + x1) / 2, by1, 1.05 + len);
    furn += ell(
      fc[0],
      fc[1],
      (P(x1, by1, 1.05 + len)[0] - P(x0, by1, 1.05 + len)[0]) * 0.62,
      40,
      soft(ctx, '#3a2e22', 0.4),
      fo(0.35),
    );
    furn += box(x0 - 6, x1 + 6, by1 - bh * 0.42, by1, 1.0, 1.03, shade(woodCol, -0.1));
    furn += box(x0, x1, by1 - bh * 0.17, by1, 1.03, 1.03 + len, shade(woodCol, -0.15));
    furn += box(x0 + 4, x1 - 4, by1 - bh * 0.24, by1 - bh * 0.17, 1.03, 1.03 + len, fabric, shade(fabric, 0.06));
    const pw = (x1 - x0 - 30) / 2;
    for (let i = 0; i < 2; i++)
      furn += roundBox(
        x0 + 10 + i * (pw + 10),
        by1 - bh * 0.31,
        x0 + 10 + i * (pw + 10) + pw,
        by1 - bh * 0.22,
        1.06,
        shade(fabric, 0.06),
      );
    const bl = vary(r, accent, 6);
    furn += box(x0, x1, by1 - bh * 0.245, by1 - bh * 0.13, 1.03 + len * 0.45, 1.04 + len, bl, shade(bl, 0.12));
    furn += poly(
      [
        P(x0, by1 - bh * 0.245, 1.03 + len * 0.45),
        P(x1, by1 - bh * 0.245, 1.03 + len * 0.45),
        P(x1, by1 - bh * 0.245, 1.03 + len * 0.55),
        P(x0, by1 - bh * 0.245, 1.03 + len * 0.55),
      ],
      shade(bl, 0.25),
    );
    const nx0 = x1 + 30;
    if (nx0 + 90 < bx1) {
      furn += box(nx0, nx0 + 80, by1 - bh * 0.2, by1, 1.02, 1.15, shade(woodCol, -0.05));
      furn += lamp(ctx, P(nx0 + 40, by1 - bh * 0.2, 1.08), bh * 0.22, accent);
    } else if (x0 - 110 > bx0) {
      furn += box(x0 - 110, x0 - 30, by1 - bh * 0.2, by1, 1.02, 1.15, shade(woodCol, -0.05));
      furn += lamp(ctx, P(x0 - 70, by1 - bh * 0.2, 1.08), bh * 0.22, accent);
    }
  } else {
    const swid = bw * r.range(0.45, 0.6);
    const x0 = bx0 + (bw - swid) * r.range(0.2, 0.8);
    const x1 = x0 + swid;
    const sofa = vary(r, r.pick(['#d8cfc0', '#8fa3a6', '#b9a58a', '#6f8a99', '#c8b8a0', accent]), 6);
    const sd = 0.18;
    const rugC = vary(r, r.pick(['#d9cdb8', '#c4b59c', '#e4dccd', '#b7a78f']), 6);
    furn += poly(
      [P(x0 - 40, by1, 1.3), P(x1 + 40, by1, 1.3), P(x1 + 40, by1, 2.6), P(x0 - 40, by1, 2.6)],
      rugC,
      fo(0.9),
    );
    const fc = P((x0 + x1) / 2, by1, 1.02 + sd);
    furn += ell(fc[0], fc[1], swid * 0.7, 30, soft(ctx, '#3a2e22', 0.4), fo(0.3));
    furn += box(x0, x1, by1 - bh * 0.34, by1 - bh * 0.04, 1.0, 1.05, sofa);
    furn += box(x0, x1, by1 - bh * 0.15, by1 - bh * 0.03, 1.05, 1.02 + sd, sofa, shade(sofa, 0.12));
    furn += box(x0 - 24, x0 + 20, by1 - bh * 0.22, by1 - bh * 0.03, 1.0, 1.02 + sd, shade(sofa, -0.04));
    furn += box(x1 - 20, x1 + 24, by1 - bh * 0.22, by1 - bh * 0.03, 1.0, 1.02 + sd, shade(sofa, -0.04));
    furn +=
      box(x0 + 10, x0 + 18, by1 - bh * 0.03, by1, 1.1, 1.12, '#4a3a2c') +
      box(x1 - 18, x1 - 10, by1 - bh * 0.03, by1, 1.1, 1.12, '#4a3a2c');
    for (let i = 0; i < 3; i++) {
      const cx = x0 + 30 + (i * (swid - 60)) / 2.2;
      furn += roundBox(
        cx,
        by1 - bh * 0.3,
        cx + swid * 0.18,
        by1 - bh * 0.17,
        1.07,
        r.pick([fabric, accent, shade(sofa, 0.2)]),
      );
    }
    const tx0 = x0 + swid * 0.2;
    const tx1 = x1 - swid * 0.2;
    furn += box(tx0, tx1, by1 - bh * 0.12, by1 - bh * 0.1, 1.6, 2.0, shade(woodCol, -0.1));
    for (const [lx, ls] of [
      [tx0 + 5, 1.62],
      [tx1 - 15, 1.62],
      [tx0 + 5, 1.95],
      [tx1 - 15, 1.95],
    ] as const)
      furn += box(lx, lx + 10, by1 - bh * 0.1, by1, ls, ls + 0.03, shade(woodCol, -0.3));
    const vase = P(tx0 + (tx1 - tx0) * 0.4, by1 - bh * 0.12, 1.8);
    furn += rect(vase[0] - 10, vase[1] - 46, 20, 46, '#f4f1ea') + grassTuft(r, vase[0], vase[1] - 40, 60, '#8b8a5a');
    furn += lamp(ctx, P(x1 + 70 < bx1 ? x1 + 60 : x0 - 60, by1, 1.1), bh * 0.8, accent, true);
  }
  // a framed picture on the wall if there is room
  const pX = wx > bx0 + bw * 0.4 ? bx0 + bw * 0.1 : wx + winW + bw * 0.12;
  const pw = bw * r.range(0.1, 0.15);
  if (pX + pw < bx1 - 30 && (pX + pw < wx - 110 || pX > wx + winW + 110)) {
    const ph = pw * r.range(0.7, 1.3);
    const py = by0 + bh * 0.22;
    s += rect(pX + 5, py + 7, pw, ph, '#000000', fo(0.12));
    s += rect(pX, py, pw, ph, shade(woodCol, -0.25)) + rect(pX + 8, py + 8, pw - 16, ph - 16, '#f4efe4');
    s +=
      rect(pX + 16, py + 16, pw - 32, (ph - 32) * 0.5, mix(accent, '#ffffff', 0.5)) +
      rect(pX + 16, py + 16 + (ph - 32) * 0.5, pw - 32, (ph - 32) * 0.5, mix('#d9c39a', '#ffffff', 0.3));
  }
  s += furn;
  // warm light from the window
  s += rect(
    0,
    0,
    W,
    H,
    rad(
      ctx,
      [
        [0, '#fff1d0', 0.25],
        [1, '#fff1d0', 0],
      ],
      wx + winW / 2,
      wy + wh / 2,
      W * 0.7,
    ),
  );
  return { svg: s, warmth: r.range(0.3, 0.6) };
}

function miniView(ctx: Ctx, x: number, y: number, w: number, h: number): string {
  const r = ctx.r;
  const hz = y + h * r.range(0.4, 0.6);
  const skyC = vary(r, '#a4c4dc', 8);
  const seaC = vary(r, '#6a9fac', 8);
  let s = rect(
    x,
    y,
    w,
    hz - y,
    lin(ctx, [
      [0, skyC],
      [1, '#f0f4f2'],
    ]),
  );
  s += rect(
    x,
    hz,
    w,
    y + h - hz,
    lin(ctx, [
      [0, mix(seaC, '#eef3f2', 0.4)],
      [1, seaC],
    ]),
  );
  if (r.chance(0.5)) s += rect(x, y + h * 0.85, w, h * 0.15, '#e9dcbe');
  for (let i = 0; i < 3; i++)
    s += ell(
      x + r.range(0, w),
      y + r.range(0.05, 0.3) * h,
      r.range(30, 70),
      r.range(8, 16),
      soft(ctx, '#ffffff', 0.3),
      fo(0.8),
    );
  return s + rect(x, y, w, h, '#ffffff', fo(0.2));
}

function lamp(ctx: Ctx, base: V2, h: number, accent: string, floor = false): string {
  const [x, y] = base;
  const shadeW = floor ? 90 : 60;
  const shadeH = floor ? 70 : 50;
  const top = y - h;
  let s = ell(x, top + shadeH * 0.5, shadeW * 2.6, shadeW * 2.2, soft(ctx, '#ffd89a', 0.1), fo(0.5));
  s += rect(x - 2.5, top + shadeH * 0.5, 5, h - shadeH * 0.5, '#4a3d30');
  s += floor
    ? ell(x, y, 36, 8, '#4a3d30')
    : ell(x, y - 4, 18, 6, mix(accent, '#ffffff', 0.2)) + rect(x - 16, y - 40, 32, 36, mix(accent, '#ffffff', 0.2));
  s += poly(
    [
      [x - shadeW * 0.35, top],
      [x + shadeW * 0.35, top],
      [x + shadeW * 0.5, top + shadeH],
      [x - shadeW * 0.5, top + shadeH],
    ],
    lin(ctx, [
      [0, '#fff3d6'],
      [1, '#f4d9a8'],
    ]),
  );
  return s;
}

// ---------------------------------------------------------------------------------------------
// Rendering

const SCENES: Record<PhotoKind, (ctx: Ctx) => Scene> = {
  'cabin-exterior': sceneCabin,
  interior: sceneInterior,
  sea: sceneSea,
  beach: sceneBeach,
  terrace: sceneTerrace,
  sunset: sceneSunset,
};

function buildSvg(seed: number, kind: PhotoKind): { svg: string; warmth: number } {
  const ctx: Ctx = { r: makeRand(seed, kind), defs: [], uid: 0, soft: new Map() };
  const scene = SCENES[kind](ctx);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}"><defs>${ctx.defs.join('')}</defs>${scene.svg}</svg>`;
  return { svg, warmth: scene.warmth };
}

let finishMaps: { grain: Int8Array; vignette: Float32Array; tmp: Uint8Array } | undefined;
/** Fixed (deterministic) luminance grain and vignette falloff, shared by every photo. */
function maps() {
  if (finishMaps) return finishMaps;
  const next = seededRandom(0x5eed);
  const grain = new Int8Array(W * H);
  const vignette = new Float32Array(W * H);
  for (let y = 0, i = 0; y < H; y++) {
    const dy = (y / H - 0.5) * 2;
    for (let x = 0; x < W; x++, i++) {
      grain[i] = Math.round((next() + next() + next() - 1.5) * 9);
      const dx = (x / W - 0.5) * 2;
      const t = Math.min(1, Math.max(0, (Math.sqrt(dx * dx * 0.8 + dy * dy * 0.9) - 0.45) / 0.9));
      vignette[i] = 1 - 0.32 * t * t * (3 - 2 * t);
    }
  }
  finishMaps = { grain, vignette, tmp: new Uint8Array(W * H * 3) };
  return finishMaps;
}

/**
 * The photographic finish, in place on packed RGB: a slight lens softness (a [1 2 1] blur each way),
 * a warm grade with lifted blacks, a vignette and luminance grain.
 */
function finish(rgb: Uint8Array, warmth: number): void {
  const { grain, vignette, tmp } = maps();
  const row = W * 3;
  for (let y = 0; y < H; y++) {
    const o = y * row;
    for (let c = 0; c < 3; c++) {
      tmp[o + c] = rgb[o + c]!;
      tmp[o + row - 3 + c] = rgb[o + row - 3 + c]!;
    }
    for (let p = o + 3; p < o + row - 3; p++) tmp[p] = (rgb[p - 3]! + 2 * rgb[p]! + rgb[p + 3]! + 2) >> 2;
  }
  const out = new Uint8ClampedArray(rgb.buffer, rgb.byteOffset, rgb.length);
  // per-channel gain (warm grade, /4 for the blur kernel) and lifted blacks
  const gr = ((1 + 0.07 * warmth) * 0.95) / 4;
  const gg = ((1 + 0.02 * warmth) * 0.95) / 4;
  const gb = ((1 - 0.06 * warmth) * 0.95) / 4;
  for (let y = 0, i = 0; y < H; y++) {
    const up = y === 0 ? 0 : -row;
    const down = y === H - 1 ? 0 : row;
    for (let x = 0, p = y * row; x < W; x++, i++, p += 3) {
      const v = vignette[i]!;
      const n = grain[i]!;
      out[p] = (tmp[p + up]! + 2 * tmp[p]! + tmp[p + down]!) * gr * v + 10 + n;
      out[p + 1] = (tmp[p + 1 + up]! + 2 * tmp[p + 1]! + tmp[p + 1 + down]!) * gg * v + 9 + n;
      out[p + 2] = (tmp[p + 2 + up]! + 2 * tmp[p + 2]! + tmp[p + 2 + down]!) * gb * v + 10 + n;
    }
  }
}

/** Deterministic: the same (seed, kind) always gives the same bytes. JPEG, 1600x1067, quality ~78, progressive (mozjpeg), under ~350 KB. */
export async function makeDemoPhoto(seed: number, kind: PhotoKind): Promise<Uint8Array> {
  const { svg, warmth } = buildSvg(seed, kind);
  const { data, info } = await sharp(Buffer.from(svg)).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  if (info.width !== W || info.height !== H || info.channels !== 3)
    throw new Error(`unexpected raster ${info.width}x${info.height}x${info.channels}`);
  finish(data, warmth);
  const out = await sharp(data, { raw: { width: W, height: H, channels: 3 } })
    .jpeg({ quality: 78, progressive: true, mozjpeg: true })
    .toBuffer();
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
}

// ---------------------------------------------------------------------------------------------
// CLI: examples and a contact sheet in /tmp/demo-photos/

if (import.meta.main) {
  const { mkdir, writeFile } = await import('node:fs/promises');
  const dir = '/tmp/demo-photos';
  await mkdir(dir, { recursive: true });
  const kinds = Object.keys(SCENES) as PhotoKind[];
  const perKind = Number(process.argv[2] ?? 2);
  const cols = perKind >= 3 ? perKind : 3;
  const tw = Math.round(1200 / cols);
  const th = Math.round((tw * H) / W);
  const tiles: { input: Buffer; left: number; top: number }[] = [];
  let total = 0;
  let cpu = 0;
  let bytes = 0;
  let max = 0;
  for (const [ki, kind] of kinds.entries()) {
    for (let i = 0; i < perKind; i++) {
      const seed = (ki * perKind + i + 1) * 7919;
      const t0 = performance.now();
      const c0 = process.cpuUsage();
      const jpg = await makeDemoPhoto(seed, kind);
      const dt = performance.now() - t0;
      const c = process.cpuUsage(c0);
      cpu += (c.user + c.system) / 1000;
      total += dt;
      bytes += jpg.byteLength;
      max = Math.max(max, jpg.byteLength);
      if (i < 2) await writeFile(`${dir}/${kind}-${i + 1}.jpg`, jpg);
      console.log(`${kind} #${i + 1}  ${(jpg.byteLength / 1024).toFixed(0)} KB  ${dt.toFixed(0)} ms`);
      const idx = tiles.length;
      tiles.push({
        input: await sharp(jpg).resize(tw, th).toBuffer(),
        left: (idx % cols) * tw,
        top: Math.floor(idx / cols) * th,
      });
    }
  }
  const again = await makeDemoPhoto(7919, kinds[0]!);
  const first = await makeDemoPhoto(7919, kinds[0]!);
  const deterministic = Buffer.compare(Buffer.from(again), Buffer.from(first)) === 0;
  await sharp({
    create: { width: tw * cols, height: th * Math.ceil(tiles.length / cols), channels: 3, background: '#ffffff' },
  })
    .composite(tiles)
    .png()
    .toFile(`${dir}/contact-sheet.png`);
  const n = tiles.length;
  console.log(
    `${n} photos: avg ${(total / n).toFixed(0)} ms wall (${(cpu / n).toFixed(0)} ms CPU incl. libvips threads), avg ${(bytes / n / 1024).toFixed(0)} KB, max ${(max / 1024).toFixed(0)} KB, deterministic: ${deterministic}`,
  );
  console.log(`-> ${dir}/contact-sheet.png`);
}
