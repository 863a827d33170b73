/**
 * Procedural demo photos for seeding the local site: no network, only `sharp`.
 * Each photo is an SVG scene (sky, Caspian sea, sand, cabins, terraces, rooms) varied by a seeded PRNG,
 * rasterised by sharp/librsvg, then softened, grained and vignetted to look like a gentle phone photo.
 *
 * CLI: `node scripts/demo/photos.ts` writes examples and a contact sheet to /tmp/demo-photos/.
 */
import sharp from 'sharp';

export type PhotoKind = 'cabin-exterior' | 'interior' | 'sea' | 'beach' | 'terrace' | 'sunset';

const W = 1600;
const H = 1067;

/** A small deterministic PRNG (mulberry32): returns floats in [0, 1). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// ---------------------------------------------------------------------------------------------
// Small helpers: randomness, colours, SVG snippets

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
  const next = rng((Math.imul(seed | 0, 0x9e3779b1) ^ h) >>> 0);
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
  '#' + c.map((v) => Math.max(0, Math.min(255, Math.round(v))).toString(16).padStart(2, '0')).join('');
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

type Ctx = { r: Rand; defs: string[]; uid: number; blurs: Map<number, string> };

function newId(ctx: Ctx, prefix: string): string {
  ctx.uid += 1;
  return `${prefix}${ctx.uid}`;
}

type Stop = [offset: number, color: string, opacity?: number];
const stopsSvg = (stops: readonly Stop[]) =>
  stops.map(([o, c, a]) => `<stop offset="${f1(o * 100)}%" stop-color="${c}"${a === undefined ? '' : ` stop-opacity="${f1(a)}"`}/>`).join('');

/** Linear gradient (objectBoundingBox by default); returns `url(#id)`. */
function lin(ctx: Ctx, stops: readonly Stop[], x1 = 0, y1 = 0, x2 = 0, y2 = 1, user = false): string {
  const id = newId(ctx, 'l');
  const units = user ? ' gradientUnits="userSpaceOnUse"' : '';
  ctx.defs.push(`<linearGradient id="${id}" x1="${f1(x1)}" y1="${f1(y1)}" x2="${f1(x2)}" y2="${f1(y2)}"${units}>${stopsSvg(stops)}</linearGradient>`);
  return `url(#${id})`;
}

/** Radial gradient in user space; returns `url(#id)`. */
function rad(ctx: Ctx, stops: readonly Stop[], cx: number, cy: number, rx: number, ry = rx): string {
  const id = newId(ctx, 'r');
  const k = ry / rx;
  ctx.defs.push(
    `<radialGradient id="${id}" gradientUnits="userSpaceOnUse" cx="0" cy="0" r="${f1(rx)}" gradientTransform="translate(${f1(cx)} ${f1(cy)}) scale(1 ${k.toFixed(4)})">${stopsSvg(stops)}</radialGradient>`,
  );
  return `url(#${id})`;
}

/** A shared Gaussian blur filter; returns the `filter="…"` attribute. */
function blur(ctx: Ctx, sd: number): string {
  const key = Math.max(0.5, Math.round(sd * 2) / 2);
  let id = ctx.blurs.get(key);
  if (!id) {
    id = newId(ctx, 'b');
    ctx.blurs.set(key, id);
    ctx.defs.push(
      `<filter id="${id}" x="-50%" y="-50%" width="200%" height="200%" color-interpolation-filters="sRGB"><feGaussianBlur stdDeviation="${key}"/></filter>`,
    );
  }
  return ` filter="url(#${id})"`;
}

const rect = (x: number, y: number, w: number, h: number, fill: string, extra = '') =>
  `<rect x="${f1(x)}" y="${f1(y)}" width="${f1(w)}" height="${f1(h)}" fill="${fill}"${extra}/>`;
const ell = (cx: number, cy: number, rx: number, ry: number, fill: string, extra = '') =>
  `<ellipse cx="${f1(cx)}" cy="${f1(cy)}" rx="${f1(Math.max(0.1, rx))}" ry="${f1(Math.max(0.1, ry))}" fill="${fill}"${extra}/>`;
const poly = (p: readonly V2[], fill: string, extra = '') => `<polygon points="${pts(p)}" fill="${fill}"${extra}/>`;
const line = (a: V2, b: V2, stroke: string, w: number, extra = '') =>
  `<line x1="${f1(a[0])}" y1="${f1(a[1])}" x2="${f1(b[0])}" y2="${f1(b[1])}" stroke="${stroke}" stroke-width="${f1(w)}"${extra}/>`;
const op = (o: number) => ` opacity="${o.toFixed(3)}"`;

/** A gently wavy line across [x0, x1] around yBase; sum of a few random sines. */
function ridge(r: Rand, x0: number, x1: number, yBase: number, amp: number, wave: number, step = 16): V2[] {
  const waves = [0, 1, 2].map((i) => ({
    k: (Math.PI * 2) / (wave * r.range(0.6, 1.4) / (i + 1) ** 1.3),
    p: r.range(0, Math.PI * 2),
    a: amp / (i + 1) ** 1.2,
  }));
  const out: V2[] = [];
  for (let x = x0; x <= x1 + step - 1; x += step) {
    const xx = Math.min(x, x1);
    out.push([xx, yBase + waves.reduce((s, w) => s + w.a * Math.sin(xx * w.k + w.p), 0)]);
  }
  return out;
}
/** Closes a ridge down to `bottom` as a fillable polygon. */
const ridgeFill = (top: V2[], bottom: number): V2[] => [...top, [top[top.length - 1]![0], bottom], [top[0]![0], bottom]];

// ---------------------------------------------------------------------------------------------
// Landscape components

type Sky = { top: string; mid: string; horizon: string; sunX: number; sunY: number; warm: number };

function daySky(ctx: Ctx, horizon: number): { svg: string; sky: Sky } {
  const r = ctx.r;
  const top = vary(r, r.pick(['#5b8fc6', '#6a9ccf', '#7aa8d2', '#4f87c2', '#86adcf']), 8);
  const horizonCol = vary(r, r.pick(['#e3ecef', '#eef0e8', '#f3ece0', '#dde8ee']), 5);
  const mid = mix(top, horizonCol, 0.55);
  const sky: Sky = { top, mid, horizon: horizonCol, sunX: r.range(0.1, 0.9) * W, sunY: r.range(-0.15, 0.2) * H, warm: r.range(0, 0.4) };
  let svg = rect(0, 0, W, horizon + 2, lin(ctx, [[0, top], [0.6, mid], [1, horizonCol]], 0, 0, 0, horizon, true));
  // soft sun bloom, usually just outside the frame
  svg += rect(0, 0, W, horizon, rad(ctx, [[0, '#fffbee', 0.85], [0.35, '#fff6e2', 0.3], [1, '#fff6e2', 0]], sky.sunX, sky.sunY, W * 0.45));
  svg += clouds(ctx, horizon, ['#ffffff', mix('#c9d3dc', top, 0.25)], r.range(0.55, 0.95));
  return { svg, sky };
}

function clouds(ctx: Ctx, horizon: number, [light, dark]: [string, string], amount: number, sunsetLit = false): string {
  const r = ctx.r;
  let s = '';
  const n = Math.round(r.range(2, 8) * amount);
  for (let i = 0; i < n; i++) {
    const depth = r.next(); // 0 = near the top (close, big), 1 = near the horizon (far, small)
    const cy = horizon * (0.08 + depth * 0.78);
    const w = (1 - depth * 0.7) * r.range(260, 560);
    const h = w * r.range(0.18, 0.32);
    s += cloud(ctx, r.range(-0.1, 1.1) * W, cy, w, h, light, dark, r.range(0.55, 0.9) * (sunsetLit ? 0.9 : 1));
  }
  // thin high streaks
  const streaks = r.int(0, 3);
  for (let i = 0; i < streaks; i++) {
    const cy = horizon * r.range(0.05, 0.6);
    s += `<g${blur(ctx, 10)}${op(r.range(0.2, 0.45))}>${ell(r.range(0, W), cy, r.range(200, 500), r.range(6, 16), light)}</g>`;
  }
  return s;
}

function cloud(ctx: Ctx, cx: number, cy: number, w: number, h: number, light: string, dark: string, o: number): string {
  const r = ctx.r;
  const g = lin(ctx, [[0, light], [0.55, light], [1, dark]]);
  let s = ell(cx, cy + h * 0.2, w * 0.5, h * 0.3, dark);
  const n = r.int(5, 9);
  for (let i = 0; i < n; i++) {
    const t = (i + 0.5) / n - 0.5;
    const rx = w * r.range(0.12, 0.24) * (1 - Math.abs(t));
    const ry = rx * r.range(0.55, 0.85);
    s += ell(cx + t * w * 0.9 + r.range(-0.05, 0.05) * w, cy + h * 0.15 - ry * 0.6 - r.range(0, h * 0.3) * (1 - Math.abs(t) * 1.6), rx * 1.4, ry, g);
  }
  return `<g${blur(ctx, Math.max(3, h * 0.12))}${op(o)}>${s}</g>`;
}

type SeaOpts = { horizon: number; bottom: number; far: string; near: string; sunX: number; glint: string; glintAmount: number; haze: string };

function sea(ctx: Ctx, o: SeaOpts): string {
  const r = ctx.r;
  const depth = o.bottom - o.horizon;
  let s = rect(0, o.horizon, W, depth + 2, lin(ctx, [[0, o.far], [0.25, mix(o.far, o.near, 0.5)], [1, o.near]], 0, o.horizon, 0, o.bottom, true));
  // wave streaks: perspective spacing, wider and thicker towards the viewer
  const light = shade(o.far, 0.45);
  const dark = shade(o.near, -0.25);
  let waves = '';
  const n = Math.round(depth * 0.45);
  for (let i = 0; i < n; i++) {
    const t = r.next() ** 1.6;
    const y = o.horizon + 3 + t * depth;
    const rx = 30 + t * r.range(120, 420);
    const ry = 0.6 + t * r.range(1.5, 5);
    waves += ell(r.range(-50, W + 50), y, rx, ry, r.chance(0.55) ? light : dark, op(r.range(0.12, 0.35) * (0.5 + t)));
  }
  s += `<g${blur(ctx, 1)}>${waves}</g>`;
  // glints under the sun
  let gl = '';
  const g = Math.round(depth * 0.6 * o.glintAmount);
  for (let i = 0; i < g; i++) {
    const t = r.next() ** 1.3;
    const y = o.horizon + 2 + t * depth;
    const spread = 40 + t * 380;
    const x = o.sunX + (r.next() + r.next() + r.next() - 1.5) * spread;
    gl += ell(x, y, 3 + t * r.range(10, 40), 0.6 + t * 2.2, o.glint, op(r.range(0.35, 0.9)));
  }
  s += `<g${blur(ctx, 0.8)}>${gl}</g>`;
  // haze at the horizon
  s += rect(0, o.horizon - 6, W, depth * 0.22 + 6, lin(ctx, [[0, o.haze, 0.75], [1, o.haze, 0]]));
  s += `<g${blur(ctx, 1)}>${rect(0, o.horizon - 0.5, W, 1.6, shade(o.far, -0.12), op(0.6))}</g>`;
  return s;
}

/** Soft distant hills along part of the horizon. */
function farCoast(ctx: Ctx, horizon: number, color: string): string {
  const r = ctx.r;
  const left = r.chance(0.5);
  const len = W * r.range(0.25, 0.55);
  const x0 = left ? -20 : W - len;
  const x1 = left ? len : W + 20;
  const top = ridge(r, x0, x1, horizon - r.range(20, 55), r.range(8, 22), 260, 12).map(([x, y]): V2 => {
    const edge = left ? (x1 - x) / len : (x - x0) / len; // taper into the sea
    return [x, horizon - (horizon - y) * Math.min(1, edge * 2.2)];
  });
  return `<g${blur(ctx, 1.5)}>${poly(ridgeFill(top, horizon + 1), color, op(0.8))}</g>`;
}

function sand(ctx: Ctx): { light: string; mid: string; dark: string; wet: string } {
  const r = ctx.r;
  const light = vary(r, r.pick(['#eadcbd', '#e8d5b0', '#efe0c2', '#e3d2ad']), 6);
  return { light, mid: shade(mix(light, '#c9a878', 0.45), -0.02), dark: mix(light, '#a88a5e', 0.6), wet: mix(light, '#8f7d62', 0.45) };
}

/** Beach from the water's edge down: wet band, foam lines, dry sand with faint ripples. */
function beach(ctx: Ctx, edge: number, sandCol: ReturnType<typeof sand>, seaNear: string): string {
  const r = ctx.r;
  const top = ridge(r, -20, W + 20, edge, r.range(4, 14), 700, 20);
  let s = poly(ridgeFill(top, H + 2), lin(ctx, [[0, sandCol.wet], [0.12, mix(sandCol.wet, sandCol.light, 0.6)], [0.3, sandCol.light], [1, sandCol.mid]], 0, edge, 0, H, true));
  // shallow water film over wet sand
  const film = top.map(([x, y]): V2 => [x, y + r.range(2, 5)]);
  s += `<g${blur(ctx, 3)}>${poly(ridgeFill(top, edge + (H - edge) * 0.05), mix(seaNear, '#ffffff', 0.35), op(0.45))}</g>`;
  // foam lines
  let foam = `<polyline points="${pts(film)}" fill="none" stroke="#ffffff" stroke-width="${f1(r.range(3, 6))}" stroke-opacity="0.85"/>`;
  const foam2 = ridge(r, -20, W + 20, edge - (H - edge) * r.range(0.03, 0.08), r.range(3, 8), 500, 20);
  foam += `<polyline points="${pts(foam2)}" fill="none" stroke="#ffffff" stroke-width="${f1(r.range(2, 4))}" stroke-opacity="0.55" stroke-dasharray="${f1(r.range(60, 200))} ${f1(r.range(10, 60))}"/>`;
  s += `<g${blur(ctx, 1.2)}>${foam}</g>`;
  // ripples and scattered shells
  let rip = '';
  for (let i = 0; i < 40; i++) {
    const t = r.next();
    const y = edge + (H - edge) * (0.15 + t * 0.85);
    const p = ridge(r, r.range(-100, W), 0, y, 2 + t * 4, 80 + t * 120, 10);
    const len = 80 + t * 300;
    const seg = p.length ? ridge(r, p[0]![0], p[0]![0] + len, y, 1.5 + t * 3, 60 + t * 100, 8) : [];
    rip += `<polyline points="${pts(seg)}" fill="none" stroke="${sandCol.dark}" stroke-width="${f1(1 + t * 2.5)}" stroke-opacity="${(0.08 + t * 0.1).toFixed(2)}"/>`;
  }
  for (let i = 0; i < 70; i++) {
    const t = r.next();
    rip += ell(r.range(0, W), edge + (H - edge) * (0.1 + t * 0.9), 1 + t * 3, 0.7 + t * 1.8, r.chance(0.5) ? '#ffffff' : sandCol.dark, op(r.range(0.2, 0.5)));
  }
  s += `<g${blur(ctx, 0.8)}>${rip}</g>`;
  return s;
}

function grassTuft(r: Rand, x: number, y: number, size: number, color: string): string {
  let d = '';
  const blades = r.int(7, 14);
  for (let i = 0; i < blades; i++) {
    const a = r.range(-1.0, 1.0);
    const len = size * r.range(0.5, 1.1);
    const bx = x + r.range(-size * 0.15, size * 0.15);
    const tx = bx + Math.sin(a) * len;
    const ty = y - Math.cos(a) * len;
    d += `M${f1(bx)},${f1(y)} Q${f1(bx + Math.sin(a) * len * 0.3)},${f1(y - len * 0.6)} ${f1(tx)},${f1(ty)} `;
  }
  return `<path d="${d}" fill="none" stroke="${color}" stroke-width="${f1(Math.max(1.2, size * 0.03))}" stroke-linecap="round"/>`;
}

function dunes(ctx: Ctx, yTop: number, sandCol: ReturnType<typeof sand>, layers: number, grass: string): string {
  const r = ctx.r;
  let s = '';
  for (let i = 0; i < layers; i++) {
    const t = layers === 1 ? 1 : i / (layers - 1);
    const y = yTop + (H - yTop) * t * 0.55;
    const top = ridge(r, -20, W + 20, y, r.range(15, 45) * (1 + t), r.range(500, 1100), 16);
    const c = mix(mix(sandCol.light, '#d8c6a4', 0.5), sandCol.mid, t * 0.6);
    s += poly(ridgeFill(top, H + 2), lin(ctx, [[0, shade(c, 0.12)], [0.25, c], [1, shade(c, -0.08)]]), i === 0 ? blur(ctx, 1) : '');
    let g = '';
    const tufts = r.int(3, 9);
    for (let k = 0; k < tufts; k++) {
      const p = r.pick(top);
      const size = (18 + t * 60) * r.range(0.6, 1.3);
      g += grassTuft(r, p[0], p[1] + size * 0.15, size, mix(grass, sandCol.dark, r.range(0, 0.4)));
    }
    s += i === 0 ? `<g${blur(ctx, 1)}>${g}</g>` : g;
  }
  return s;
}

type Greens = { dark: string; mid: string; light: string; trunk: string };
function greens(r: Rand): Greens {
  const mid = vary(r, r.pick(['#4e6b3e', '#587443', '#46633d', '#5f7a48', '#3f5e44']), 8);
  return { dark: shade(mid, -0.35), mid, light: mix(mid, '#c9d49a', 0.35), trunk: vary(r, '#6b5440', 8) };
}

function pine(ctx: Ctx, x: number, yb: number, h: number, g: Greens): string {
  const r = ctx.r;
  let s = poly([[x - h * 0.012, yb], [x + h * 0.012, yb], [x + h * 0.006, yb - h * 0.9], [x - h * 0.006, yb - h * 0.9]], g.trunk);
  const layers = r.int(5, 8);
  for (let i = 0; i < layers; i++) {
    const t = i / layers;
    const y = yb - h * (0.3 + t * 0.68);
    const w = h * (0.3 - t * 0.24) * r.range(0.8, 1.2);
    const dy = h * 0.09;
    const lean = r.range(-0.1, 0.1) * w;
    s += poly([[x - w, y + dy * 0.6], [x + lean, y - dy], [x + w, y + dy * 0.5], [x + w * 0.3, y + dy * 0.8], [x - w * 0.4, y + dy * 0.85]], g.dark);
    s += poly([[x - w * 0.85, y + dy * 0.35], [x + lean, y - dy * 0.85], [x - w * 0.05, y + dy * 0.45]], g.mid, op(0.8));
  }
  return s;
}

function roundTree(ctx: Ctx, x: number, yb: number, h: number, g: Greens, narrow = false): string {
  const r = ctx.r;
  const wk = narrow ? 0.16 : 0.4;
  let s = poly([[x - h * 0.02, yb], [x + h * 0.02, yb], [x + h * 0.01, yb - h * 0.55], [x - h * 0.01, yb - h * 0.55]], g.trunk);
  const grad = lin(ctx, [[0, g.light], [0.45, g.mid], [1, g.dark]], 0.2, 0, 0.8, 1);
  const n = narrow ? 9 : 12;
  for (let i = 0; i < n; i++) {
    const t = r.next();
    const cy = yb - h * (narrow ? 0.25 + t * 0.7 : 0.45 + t * 0.45);
    const spread = narrow ? h * wk * (1 - Math.abs(t - 0.45)) : h * wk * Math.sin(Math.PI * (0.2 + t * 0.8));
    const rr = h * (narrow ? 0.09 : 0.14) * r.range(0.7, 1.2);
    s += ell(x + r.range(-1, 1) * spread * 0.8, cy, rr, rr * (narrow ? 1.4 : 0.9), grad);
  }
  return s;
}

function trees(ctx: Ctx, x: number, yb: number, h: number, g: Greens, kind = ctx.r.pick(['pine', 'round', 'poplar'] as const)): string {
  if (kind === 'pine') return pine(ctx, x, yb, h, g);
  return roundTree(ctx, x, yb, h, g, kind === 'poplar');
}

// ---------------------------------------------------------------------------------------------
// Buildings

type Win = { glassTop: string; glassBottom: string; frame: string };

function windowSvg(ctx: Ctx, x: number, y: number, w: number, h: number, win: Win, mullions = true): string {
  const g = lin(ctx, [[0, win.glassTop], [1, win.glassBottom]]);
  const fw = Math.max(3, w * 0.07);
  let s = rect(x - fw, y - fw, w + fw * 2, h + fw * 2, win.frame);
  s += rect(x, y, w, h, g);
  s += poly([[x + w * 0.15, y + h], [x + w * 0.55, y], [x + w * 0.75, y], [x + w * 0.35, y + h]], '#ffffff', op(0.12));
  if (mullions) {
    s += rect(x + w / 2 - fw * 0.35, y, fw * 0.7, h, win.frame);
    s += rect(x, y + h * 0.42, w, fw * 0.6, win.frame);
  }
  s += rect(x - fw * 1.3, y + h + fw * 0.6, w + fw * 2.6, fw * 1.2, shade(win.frame, -0.1));
  return s;
}

/** A gabled wooden cabin in a light oblique view (front gable + receding side wall). */
function cabin(ctx: Ctx, xc: number, yb: number, w: number, sky: Sky, sunLeft: boolean): string {
  const r = ctx.r;
  const wall = vary(r, r.pick(['#a87a50', '#b98a5c', '#8d6440', '#e9e2d3', '#d7cbb4', '#9fb5b4', '#c9b48d']), 8);
  const roof = vary(r, r.pick(['#4a4d52', '#6b3f33', '#3f5a55', '#5a5247', '#7a4a3a']), 6);
  const trim = r.pick(['#f2eee6', '#ece6da', shade(wall, -0.35)]);
  const hWall = w * r.range(0.45, 0.6);
  const hRoof = w * r.range(0.3, 0.55);
  const depth = w * r.range(0.55, 0.9);
  const side = sunLeft ? 1 : -1; // the side wall recedes away from the sun so it sits in shade
  const ox = depth * 0.62 * side;
  const oy = -depth * 0.2;
  const x0 = xc - w / 2;
  const x1 = xc + w / 2;
  const yt = yb - hWall;
  const apex: V2 = [xc, yt - hRoof];
  const ov = w * 0.06;
  const xs = side > 0 ? x1 : x0; // the corner where the side wall starts
  const win: Win = { glassTop: mix(sky.top, '#ffffff', 0.35), glassBottom: shade(sky.top, -0.45), frame: trim };
  let s = '';
  // ground shadow
  s += `<g${blur(ctx, 14)}>${ell(xc + ox * 0.5, yb + 4, w * 0.75 + Math.abs(ox) * 0.4, w * 0.06, '#3b3326', op(0.35))}</g>`;
  // side wall (shaded)
  const sideShade = shade(wall, -0.3);
  s += poly([[xs, yb], [xs, yt], [xs + ox, yt + oy], [xs + ox, yb + oy]], sideShade);
  // planks + a window on the side, drawn in side-wall space
  const k = oy / ox;
  let sideIn = '';
  for (let y = yt + 12; y < yb; y += 13) sideIn += rect(Math.min(0, ox), y, Math.abs(ox), 1.3, '#000000', op(0.12));
  const sw = Math.abs(ox) * 0.28;
  const sx = side > 0 ? Math.abs(ox) * 0.45 : -Math.abs(ox) * 0.45 - sw;
  sideIn += windowSvg(ctx, sx, yt + hWall * 0.28, sw, hWall * 0.36, { ...win, glassTop: shade(win.glassTop, -0.2), frame: shade(trim, -0.25) }, false);
  s += `<g transform="matrix(1 ${k.toFixed(4)} 0 1 ${f1(xs)} ${f1(-xs * k)})">${sideIn}</g>`;
  // roof plane receding
  const eave: V2 = side > 0 ? [x1 + ov, yt + ov * 0.55] : [x0 - ov, yt + ov * 0.55];
  s += poly([apex, eave, [eave[0] + ox, eave[1] + oy], [apex[0] + ox, apex[1] + oy]], lin(ctx, [[0, shade(roof, 0.15)], [1, shade(roof, -0.1)]]));
  // roof ribs
  for (let i = 1; i < 8; i++) {
    const t = i / 8;
    s += line([apex[0] + ox * t, apex[1] + oy * t], [eave[0] + ox * t, eave[1] + oy * t], shade(roof, -0.3), 2, op(0.5));
  }
  // front gable wall with planks
  const front: V2[] = [[x0, yb], [x0, yt], apex, [x1, yt], [x1, yb]];
  const frontCol = lin(ctx, [[0, shade(wall, 0.08)], [1, shade(wall, -0.08)]], 0, 0, 1, 0);
  s += poly(front, frontCol);
  const clipId = newId(ctx, 'c');
  ctx.defs.push(`<clipPath id="${clipId}"><polygon points="${pts(front)}"/></clipPath>`);
  let planks = '';
  for (let y = apex[1] + 14; y < yb; y += 13) planks += rect(x0, y, w, 1.3, '#000000', op(0.13));
  s += `<g clip-path="url(#${clipId})">${planks}${rect(x0, yt - 4, w, 14, '#000000', op(0.18))}</g>`;
  // fascia boards on the gable
  const fw = w * 0.025;
  s += `<polyline points="${pts([[x0 - ov, yt + ov * 0.55], apex, [x1 + ov, yt + ov * 0.55]])}" fill="none" stroke="${trim}" stroke-width="${f1(fw)}" stroke-linejoin="round"/>`;
  // gable window
  if (r.chance(0.6)) {
    const gw = w * 0.14;
    s += windowSvg(ctx, xc - gw / 2, yt - hRoof * 0.55, gw, gw * 0.8, win, false);
  }
  // door and windows
  const doorW = w * 0.17;
  const doorX = xc + r.range(-0.25, 0.15) * w;
  const doorH = hWall * 0.72;
  s += rect(doorX - 4, yb - doorH - 4, doorW + 8, doorH + 4, trim);
  s += rect(doorX, yb - doorH, doorW, doorH, lin(ctx, [[0, shade(wall, -0.35)], [1, shade(wall, -0.5)]]));
  s += rect(doorX + doorW * 0.2, yb - doorH * 0.85, doorW * 0.6, doorH * 0.35, lin(ctx, [[0, win.glassTop], [1, win.glassBottom]]));
  s += ell(doorX + doorW * 0.82, yb - doorH * 0.45, 3, 3, '#d9c9a0');
  const ww = w * 0.2;
  const wh = hWall * 0.4;
  const wy = yt + hWall * 0.22;
  for (const wx of [x0 + w * 0.08, x1 - w * 0.08 - ww]) {
    if (wx + ww > doorX - 10 && wx < doorX + doorW + 10) continue;
    s += windowSvg(ctx, wx, wy, ww, wh, win);
  }
  // porch deck and steps
  const pd = hWall * 0.14;
  s += rect(x0 - w * 0.06, yb - 2, w * 1.12, pd, shade(wall, -0.2));
  s += rect(x0 - w * 0.06, yb - 2, w * 1.12, 4, shade(wall, 0.15));
  s += rect(doorX - 10, yb + pd - 2, doorW + 20, pd * 0.6, shade(wall, -0.1));
  // eave shadow under the gable
  s += `<g${blur(ctx, 6)}>${poly([[x0, yt], [xc, apex[1] + 10], [x1, yt], [x1, yt + 12], [x0, yt + 12]], '#000000', op(0.12))}</g>`;
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
  let s = poly([[xs, yb], [xs, yt], [xs + ox, yt + oy], [xs + ox, yb + oy]], shade(wall, -0.28));
  s += poly([[x0, yt], [x0 + w, yt], [x0 + w + ox, yt + oy], [x0 + ox, yt + oy]], shade(wall, -0.1));
  s += rect(x0, yt, w, h, lin(ctx, [[0, shade(wall, 0.06)], [1, shade(wall, -0.06)]], 0, 0, 1, 0));
  s += rect(x0 - 4, yt - 8, w + 8, 10, shade(wall, -0.15));
  const cols = Math.max(3, Math.round(w / r.range(95, 130)));
  const cw = w / cols;
  const glass = lin(ctx, [[0, mix(sky.top, '#ffffff', 0.3)], [1, shade(sky.top, -0.5)]]);
  for (let f = 0; f < floors; f++) {
    const fy = yt + 24 + f * fh;
    for (let c = 0; c < cols; c++) {
      const cx = x0 + c * cw;
      s += rect(cx + cw * 0.18, fy + fh * 0.1, cw * 0.64, fh * 0.62, glass);
      if (r.chance(0.25)) s += rect(cx + cw * 0.18, fy + fh * 0.1, cw * r.range(0.2, 0.4), fh * 0.62, mix(accent, '#ffffff', 0.5), op(0.85));
      // balcony slab + railing
      s += rect(cx + cw * 0.08, fy + fh * 0.7, cw * 0.84, fh * 0.07, shade(wall, -0.05));
      s += rect(cx + cw * 0.08, fy + fh * 0.77, cw * 0.84, fh * 0.05, '#000000', op(0.15));
      s += rect(cx + cw * 0.1, fy + fh * 0.5, cw * 0.8, fh * 0.2, accent, op(0.55));
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
  ] as const);
  return { far: mix(vary(r, base[0], 6), sky.horizon, 0.25), near: vary(r, base[1], 8) };
}

function sceneSea(ctx: Ctx): Scene {
  const r = ctx.r;
  const horizon = H * r.range(0.42, 0.56);
  const { svg: skySvg, sky } = daySky(ctx, horizon);
  const sp = seaPalette(r, sky);
  const sandCol = sand(ctx);
  let s = skySvg;
  if (r.chance(0.55)) s += farCoast(ctx, horizon, mix(sky.horizon, '#6f8796', 0.45));
  const edge = r.chance(0.7) ? H * r.range(0.8, 0.92) : H + 30;
  s += sea(ctx, { horizon, bottom: Math.min(edge + 20, H), far: sp.far, near: sp.near, sunX: sky.sunX, glint: '#fffdf2', glintAmount: r.range(0.4, 1), haze: sky.horizon });
  // a small boat or two on the horizon
  const boats = r.int(0, 2);
  for (let i = 0; i < boats; i++) {
    const bx = r.range(0.1, 0.9) * W;
    const by = horizon + r.range(3, 20);
    const bs = r.range(10, 22);
    s += `<g${blur(ctx, 0.8)}>${poly([[bx - bs, by], [bx + bs, by], [bx + bs * 0.7, by + bs * 0.3], [bx - bs * 0.8, by + bs * 0.3]], '#f2f2ee')}${rect(bx - bs * 0.3, by - bs * 0.5, bs * 0.6, bs * 0.5, '#dfe3e4')}</g>`;
  }
  if (edge < H) s += beach(ctx, edge, sandCol, sp.near);
  s += birds(ctx, horizon);
  return { svg: s, warmth: r.range(0, 0.3) };
}

function birds(ctx: Ctx, horizon: number): string {
  const r = ctx.r;
  if (!r.chance(0.5)) return '';
  let d = '';
  const n = r.int(1, 4);
  const cx = r.range(0.2, 0.8) * W;
  const cy = horizon * r.range(0.25, 0.7);
  for (let i = 0; i < n; i++) {
    const x = cx + r.range(-120, 120);
    const y = cy + r.range(-50, 50);
    const s = r.range(6, 13);
    d += `M${f1(x - s)},${f1(y - s * 0.3)} Q${f1(x - s * 0.4)},${f1(y - s * 0.5)} ${f1(x)},${f1(y)} Q${f1(x + s * 0.4)},${f1(y - s * 0.5)} ${f1(x + s)},${f1(y - s * 0.35)} `;
  }
  return `<path d="${d}" fill="none" stroke="#3b4650" stroke-width="1.8" stroke-linecap="round" opacity="0.7"/>`;
}

function sceneBeach(ctx: Ctx): Scene {
  const r = ctx.r;
  const horizon = H * r.range(0.33, 0.42);
  const { svg: skySvg, sky } = daySky(ctx, horizon);
  const sp = seaPalette(r, sky);
  const sandCol = sand(ctx);
  const g = greens(r);
  let s = skySvg;
  if (r.chance(0.4)) s += farCoast(ctx, horizon, mix(sky.horizon, '#6f8796', 0.45));
  const edge = horizon + (H - horizon) * r.range(0.22, 0.4);
  s += sea(ctx, { horizon, bottom: edge + 20, far: sp.far, near: mix(sp.near, sp.far, 0.3), sunX: sky.sunX, glint: '#fffdf2', glintAmount: r.range(0.3, 0.8), haze: sky.horizon });
  s += beach(ctx, edge, sandCol, sp.near);
  // dunes with grass on one side
  if (r.chance(0.7)) {
    const left = r.chance(0.5);
    const wD = W * r.range(0.3, 0.5);
    const x0 = left ? -30 : W - wD;
    const top = ridge(r, x0, x0 + wD + 30, edge + (H - edge) * r.range(0.15, 0.35), 25, 400, 14).map(([x, y]): V2 => {
      const t = left ? (x - x0) / wD : 1 - (x - x0) / wD;
      return [x, y + Math.max(0, t - 0.55) * 2.2 * (H - y) * 0.6];
    });
    s += poly(ridgeFill(top, H + 2), lin(ctx, [[0, shade(sandCol.light, 0.1)], [0.4, sandCol.mid], [1, sandCol.dark]]));
    let tufts = '';
    for (let i = 0; i < 14; i++) {
      const p = r.pick(top);
      tufts += grassTuft(r, p[0], p[1] + r.range(5, 60), r.range(30, 80), mix(g.mid, '#a59a5c', r.range(0.2, 0.6)));
    }
    s += tufts;
  }
  // parasols and sun loungers
  const n = r.int(1, 4);
  const cols = r.pick([['#f2efe6', '#2f6f8a'], ['#f4efe4', '#c8553d'], ['#efe9dc', '#d9a441'], ['#f2efe6', '#5d8a6a'], ['#e9e2d2', '#e9e2d2']] as const);
  const items: { x: number; y: number; sc: number }[] = [];
  for (let i = 0; i < n; i++) items.push({ x: r.range(0.1, 0.9) * W, y: edge + (H - edge) * r.range(0.25, 0.8), sc: 0 });
  items.sort((a, b) => a.y - b.y);
  for (const it of items) {
    const sc = 0.35 + ((it.y - edge) / (H - edge)) * 1.0;
    s += parasol(ctx, it.x, it.y, sc, cols[0], cols[1], sandCol);
  }
  return { svg: s, warmth: r.range(0.05, 0.35) };
}

function parasol(ctx: Ctx, x: number, y: number, sc: number, c1: string, c2: string, sandCol: ReturnType<typeof sand>): string {
  const r = ctx.r;
  const R = 130 * sc;
  const ph = 200 * sc;
  const tilt = r.range(-0.15, 0.15);
  const tx = x + tilt * ph;
  const ty = y - ph;
  let s = `<g${blur(ctx, 6 * sc)}>${ell(x + R * 0.5, y + R * 0.12, R * 1.05, R * 0.22, shade(sandCol.dark, -0.4), op(0.35))}</g>`;
  // lounger
  const lx = x + r.range(-0.8, 0.4) * R;
  const lw = R * 1.2;
  s += poly([[lx, y + R * 0.05], [lx + lw, y + R * 0.05], [lx + lw * 1.08, y + R * 0.22], [lx - lw * 0.05, y + R * 0.22]], shade(c1, -0.05));
  s += poly([[lx + lw, y + R * 0.05], [lx + lw * 1.25, y - R * 0.25], [lx + lw * 1.32, y - R * 0.18], [lx + lw * 1.08, y + R * 0.22]], shade(c1, -0.15));
  s += rect(lx, y + R * 0.22, R * 0.04, R * 0.1, '#6d5a45') + rect(lx + lw, y + R * 0.22, R * 0.04, R * 0.1, '#6d5a45');
  // pole + canopy
  s += line([x, y], [tx, ty], '#8a7158', Math.max(2, 6 * sc));
  const segs = 8;
  let can = '';
  for (let i = 0; i < segs; i++) {
    const a0 = Math.PI + (i / segs) * Math.PI;
    const a1 = Math.PI + ((i + 1) / segs) * Math.PI;
    const p0: V2 = [tx + Math.cos(a0) * R, ty + 28 * sc + Math.sin(a0) * R * 0.1];
    const p1: V2 = [tx + Math.cos(a1) * R, ty + 28 * sc + Math.sin(a1) * R * 0.1];
    const col = i % 2 ? c1 : c2;
    const lit = shade(col, (i / segs - 0.5) * -0.25);
    can += poly([[tx, ty - R * 0.28], p0, p1], lit);
  }
  s += can + `<path d="M${f1(tx - R)},${f1(ty + 28 * sc)} Q${f1(tx)},${f1(ty + 44 * sc)} ${f1(tx + R)},${f1(ty + 28 * sc)}" fill="none" stroke="${shade(c2, -0.25)}" stroke-width="${f1(3 * sc)}"/>`;
  return s;
}

function sceneSunset(ctx: Ctx): Scene {
  const r = ctx.r;
  const horizon = H * r.range(0.5, 0.62);
  const top = vary(r, r.pick(['#3d4f7c', '#4a4f80', '#35507a', '#56517e']), 6);
  const mid = vary(r, r.pick(['#c07a8a', '#b9718a', '#d08a7e', '#a97a9a']), 8);
  const low = vary(r, r.pick(['#f39a55', '#f2a65e', '#ee8c50', '#f5b06a']), 6);
  const hor = vary(r, r.pick(['#ffd595', '#ffdca0', '#ffcf88']), 4);
  const sunX = r.range(0.25, 0.75) * W;
  const sunR = r.range(28, 55);
  const sunY = horizon - r.range(-sunR * 0.6, sunR * 2.5);
  let s = rect(0, 0, W, horizon + 2, lin(ctx, [[0, top], [0.45, mid], [0.8, low], [1, hor]], 0, 0, 0, horizon, true));
  s += rect(0, 0, W, horizon, rad(ctx, [[0, '#fff1c8', 0.95], [0.2, '#ffd08a', 0.55], [1, '#ff9d5c', 0]], sunX, sunY, W * 0.55, horizon * 0.9));
  s += clouds(ctx, horizon, [mix(low, '#ffe2b8', 0.5), mix(top, mid, 0.5)], r.range(0.5, 1.1), true);
  s += `<g${blur(ctx, 2)}>${ell(sunX, sunY, sunR, sunR, '#fff6dc')}</g>`;
  const sp = { far: mix('#d99a78', hor, 0.3), near: shade(mix(top, '#2a3550', 0.4), -0.1) };
  const edge = r.chance(0.75) ? H * r.range(0.82, 0.93) : H + 30;
  s += sea(ctx, { horizon, bottom: Math.min(edge + 20, H), far: sp.far, near: sp.near, sunX, glint: '#ffd9a0', glintAmount: r.range(1.3, 2.2), haze: mix(hor, low, 0.4) });
  if (r.chance(0.5)) s += farCoast(ctx, horizon, mix(top, mid, 0.4));
  if (edge < H) {
    const dark = mix('#3a2f3a', low, 0.15);
    const topEdge = ridge(r, -20, W + 20, edge, r.range(4, 12), 700, 20);
    s += poly(ridgeFill(topEdge, H + 2), lin(ctx, [[0, mix(dark, low, 0.35)], [1, dark]]));
    s += `<g${blur(ctx, 1.2)}><polyline points="${pts(topEdge)}" fill="none" stroke="${hor}" stroke-width="3" stroke-opacity="0.6"/></g>`;
    // silhouettes: poplars or dune grass
    const sil = { dark: dark, mid: shade(dark, 0.05), light: shade(dark, 0.1), trunk: dark };
    const n = r.int(0, 3);
    for (let i = 0; i < n; i++) {
      const x = r.chance(0.5) ? r.range(-0.05, 0.2) * W : r.range(0.8, 1.05) * W;
      s += trees(ctx, x, edge + 10, H * r.range(0.35, 0.6), sil, r.pick(['poplar', 'pine'] as const));
    }
    for (let i = 0; i < 8; i++) s += grassTuft(r, r.range(0, W), edge + r.range(10, H - edge), r.range(30, 90), dark);
  }
  s += birds(ctx, horizon);
  return { svg: s, warmth: r.range(0.3, 0.6) };
}

function sceneCabin(ctx: Ctx): Scene {
  const r = ctx.r;
  const horizon = H * r.range(0.4, 0.5);
  const { svg: skySvg, sky } = daySky(ctx, horizon);
  const sp = seaPalette(r, sky);
  const sandCol = sand(ctx);
  const g = greens(r);
  const g2 = { ...g, dark: mix(g.dark, sky.horizon, 0.35), mid: mix(g.mid, sky.horizon, 0.35), light: mix(g.light, sky.horizon, 0.3) };
  let s = skySvg;
  const groundY = horizon + H * r.range(0.04, 0.1);
  s += sea(ctx, { horizon, bottom: groundY + 20, far: sp.far, near: sp.near, sunX: sky.sunX, glint: '#fffdf2', glintAmount: 0.4, haze: sky.horizon });
  const grassy = r.chance(0.55);
  const groundCol = grassy ? mix(g.light, sandCol.light, 0.45) : sandCol.light;
  const groundTop = ridge(r, -20, W + 20, groundY, 6, 600, 20);
  // far tree line
  let far = '';
  for (let x = -40; x < W + 40; x += r.range(40, 110)) far += trees(ctx, x, groundY + 8, H * r.range(0.08, 0.2), g2, r.pick(['pine', 'round', 'poplar'] as const));
  s += `<g${blur(ctx, 1.6)}${op(0.9)}>${far}</g>`;
  s += poly(ridgeFill(groundTop, H + 2), lin(ctx, [[0, shade(groundCol, -0.05)], [0.3, groundCol], [1, shade(groundCol, -0.12)]]));
  const sunLeft = sky.sunX < W / 2;
  const apt = r.chance(0.3);
  if (apt) {
    const w = W * r.range(0.4, 0.6);
    s += apartments(ctx, r.range(0.05, 0.95 - w / W) * W, groundY + H * r.range(0.25, 0.35), w, r.int(5, 8), sky, sunLeft);
  }
  // mid trees behind the cabins
  const treeKind = r.pick(['pine', 'round', 'poplar'] as const);
  const nTrees = r.int(2, 5);
  for (let i = 0; i < nTrees; i++) s += trees(ctx, r.range(0, W), groundY + H * r.range(0.12, 0.2), H * r.range(0.35, 0.55), g, r.chance(0.7) ? treeKind : undefined);
  if (!apt) {
    const count = r.chance(0.4) ? 2 : 1;
    if (count === 2) s += `<g${blur(ctx, 0.8)}>${cabin(ctx, r.chance(0.5) ? W * 0.2 : W * 0.8, groundY + H * 0.2, W * 0.17, sky, sunLeft)}</g>`;
    s += cabin(ctx, W * r.range(0.38, 0.62), H * r.range(0.78, 0.86), W * r.range(0.26, 0.36), sky, sunLeft);
  }
  // foreground: path, grass, a near tree at the edge
  if (grassy) {
    let t = '';
    for (let i = 0; i < 30; i++) {
      const y = groundY + (H - groundY) * r.range(0.3, 1);
      t += grassTuft(r, r.range(0, W), y, 10 + ((y - groundY) / (H - groundY)) * 40, mix(g.mid, g.dark, r.next()));
    }
    s += t;
  } else {
    s += dunes(ctx, H * 0.92, sandCol, 1, mix(g.mid, '#a59a5c', 0.4));
  }
  if (r.chance(0.6)) s += trees(ctx, r.chance(0.5) ? r.range(-0.04, 0.06) * W : r.range(0.94, 1.04) * W, H + 20, H * r.range(0.8, 1.1), g, treeKind);
  return { svg: s, warmth: r.range(0.05, 0.35) };
}

function sceneTerrace(ctx: Ctx): Scene {
  const r = ctx.r;
  const horizon = H * r.range(0.3, 0.42);
  const { svg: skySvg, sky } = daySky(ctx, horizon);
  const sp = seaPalette(r, sky);
  const deckFar = H * r.range(0.6, 0.7);
  let s = skySvg;
  s += sea(ctx, { horizon, bottom: deckFar, far: sp.far, near: sp.near, sunX: sky.sunX, glint: '#fffdf2', glintAmount: 0.7, haze: sky.horizon });
  if (r.chance(0.5)) {
    const sandCol = sand(ctx);
    const edge = horizon + (deckFar - horizon) * r.range(0.55, 0.8);
    s += `<g${blur(ctx, 1)}>${beach(ctx, edge, sandCol, sp.near)}</g>`;
  }
  const wood = vary(r, r.pick(['#a77b52', '#b58b60', '#8f6a4a', '#c49c70', '#9c7b5c']), 8);
  const rail = r.chance(0.5) ? vary(r, '#f0ece4', 4) : shade(wood, -0.05);
  // deck planks converging on a vanishing point at the horizon
  const vpX = r.range(0.3, 0.7) * W;
  const vpY = horizon;
  const k = (deckFar - vpY) / (H - vpY);
  let deck = rect(0, deckFar, W, H - deckFar, shade(wood, -0.1));
  const pw = r.range(60, 90);
  for (let xb = -W * 2, i = 0; xb < W * 3; xb += pw, i++) {
    const a: V2 = [vpX + (xb - vpX) * k, deckFar];
    const b: V2 = [vpX + (xb + pw - vpX) * k, deckFar];
    const col = shade(vary(r, wood, 7), r.range(-0.05, 0.05));
    deck += poly([a, b, [xb + pw, H], [xb, H]], col);
    deck += line(a, [xb, H], shade(wood, -0.45), 2, op(0.55));
  }
  // gradient of light on the deck
  deck += rect(0, deckFar, W, H - deckFar, lin(ctx, [[0, '#000000', 0.12], [0.4, '#000000', 0], [1, '#000000', 0.2]]));
  s += deck;
  // railing
  const railTop = deckFar - (deckFar - horizon) * r.range(0.35, 0.55);
  const bw = r.range(10, 16);
  const gap = r.range(34, 56);
  let rs = '';
  let shadows = '';
  const skew = r.range(-120, 120);
  for (let x = -gap; x < W + gap; x += gap) {
    rs += rect(x, railTop, bw, deckFar - railTop, lin(ctx, [[0, shade(rail, 0.05)], [1, shade(rail, -0.18)]], 0, 0, 1, 0));
    shadows += poly([[x, deckFar], [x + bw, deckFar], [x + bw + skew, deckFar + 150], [x + skew, deckFar + 150]], '#2e241a');
  }
  s += `<g${blur(ctx, 3)}${op(0.14)}>${shadows}</g>`;
  const postGap = gap * r.int(5, 8);
  for (let x = r.range(0, postGap); x < W; x += postGap) rs += rect(x - 8, railTop - 14, bw + 16, deckFar - railTop + 14, shade(rail, -0.08));
  rs += rect(0, railTop - 16, W, 18, lin(ctx, [[0, shade(rail, 0.15)], [1, shade(rail, -0.1)]]));
  rs += rect(0, railTop + 2, W, 5, '#000000', op(0.15));
  rs += rect(0, deckFar - 16, W, 16, shade(rail, -0.12));
  s += rs;
  // furniture: a round table with two chairs, or two loungers
  const chairCol = vary(r, r.pick(['#f1ede6', '#6b4f3a', '#3f4a52', '#c9b18b', '#e8e0d0']), 6);
  const cushion = vary(r, r.pick(['#e9e2d3', '#2f6f8a', '#d4a058', '#8aa89a', '#c66a4f']), 6);
  const tx = r.range(0.35, 0.65) * W;
  const ty = H * r.range(0.84, 0.9);
  s += `<g${blur(ctx, 12)}>${ell(tx + skew * 0.5, ty + 30, 260, 40, '#2e241a', op(0.25))}</g>`;
  s += chair(ctx, tx - r.range(190, 260), ty + 10, 1.0, chairCol, cushion, 1);
  s += table(ctx, tx, ty, chairCol);
  s += chair(ctx, tx + r.range(190, 260), ty + 10, 1.0, chairCol, cushion, -1);
  // potted plant
  if (r.chance(0.7)) {
    const px = r.chance(0.5) ? r.range(0.03, 0.14) * W : r.range(0.86, 0.97) * W;
    s += plant(ctx, px, H * r.range(0.8, 0.92), r.range(0.9, 1.3));
  }
  return { svg: s, warmth: r.range(0.1, 0.4) };
}

function chair(ctx: Ctx, x: number, y: number, sc: number, col: string, cushion: string, facing: number): string {
  const w = 150 * sc;
  const legH = 110 * sc;
  const leg = shade(col, -0.2);
  let s = '';
  s += rect(x - w / 2, y - legH, 8, legH, leg) + rect(x + w / 2 - 8, y - legH, 8, legH, leg);
  s += rect(x - w / 2 + 18 * facing, y - legH, 7, legH - 16, shade(leg, -0.2)) + rect(x + w / 2 - 25 + 18 * facing, y - legH, 7, legH - 16, shade(leg, -0.2));
  // seat
  s += poly([[x - w / 2, y - legH], [x + w / 2, y - legH], [x + w / 2 + 20 * facing, y - legH - 30], [x - w / 2 + 20 * facing, y - legH - 30]], shade(col, 0.05));
  s += rect(x - w / 2, y - legH, w, 12, shade(col, -0.1));
  s += poly([[x - w / 2 + 8, y - legH - 6], [x + w / 2 - 8, y - legH - 6], [x + w / 2 + 12 * facing, y - legH - 28], [x - w / 2 + 28 * facing, y - legH - 28]], cushion);
  // back
  const bx = x + 24 * facing;
  s += poly([[bx - w / 2, y - legH - 30], [bx + w / 2, y - legH - 30], [bx + w / 2 + 14 * facing, y - legH - 170 * sc], [bx - w / 2 + 14 * facing, y - legH - 170 * sc]], shade(col, -0.08));
  for (let i = 1; i < 4; i++) {
    const yy = y - legH - 30 - (140 * sc * i) / 4;
    s += rect(bx - w / 2 + 6, yy, w - 12, 3, shade(col, -0.25), op(0.5));
  }
  s += poly([[bx - w / 2 + 10, y - legH - 36], [bx + w / 2 - 10, y - legH - 36], [bx + w / 2 + 8 * facing, y - legH - 140 * sc], [bx - w / 2 + 8 * facing, y - legH - 140 * sc]], shade(cushion, -0.05), op(0.92));
  return s;
}

function table(ctx: Ctx, x: number, y: number, col: string): string {
  const r = ctx.r;
  const R = 120;
  const th = 125;
  let s = rect(x - 6, y - th, 12, th, shade(col, -0.3));
  s += ell(x, y - 2, 50, 10, shade(col, -0.3));
  s += ell(x, y - th + 6, R, 26, shade(col, -0.25));
  s += ell(x, y - th, R, 26, lin(ctx, [[0, shade(col, 0.1)], [1, shade(col, -0.05)]]));
  // a glass, a cup, a bowl of fruit
  const gx = x - r.range(30, 70);
  s += rect(gx - 9, y - th - 44, 18, 40, '#e8f0f0', op(0.55)) + rect(gx - 9, y - th - 24, 18, 20, r.pick(['#e3b04b', '#c44e3a', '#f0e0b0']), op(0.75));
  const cx = x + r.range(10, 60);
  s += rect(cx - 12, y - th - 22, 24, 20, '#f6f3ee') + ell(cx, y - th - 22, 12, 4, '#6b4a32');
  if (r.chance(0.6)) {
    const bx = x + r.range(-20, 20);
    s += ell(bx, y - th - 6, 34, 10, '#d9d2c4');
    for (let i = 0; i < 4; i++) s += ell(bx - 18 + i * 12, y - th - 14 - (i % 2) * 4, 9, 9, r.pick(['#e08a3a', '#c9452e', '#9bb24a', '#e6c14a']));
  }
  return s;
}

function plant(ctx: Ctx, x: number, y: number, sc: number): string {
  const r = ctx.r;
  const pot = vary(r, r.pick(['#b8704c', '#d9d2c6', '#6d6f70', '#c7a27a']), 6);
  const g = greens(r);
  let s = poly([[x - 45 * sc, y - 90 * sc], [x + 45 * sc, y - 90 * sc], [x + 32 * sc, y], [x - 32 * sc, y]], lin(ctx, [[0, shade(pot, 0.1)], [1, shade(pot, -0.2)]], 0, 0, 1, 0));
  s += rect(x - 49 * sc, y - 100 * sc, 98 * sc, 14 * sc, shade(pot, -0.05));
  let leaves = '';
  for (let i = 0; i < 16; i++) {
    const a = r.range(-1.3, 1.3);
    const len = r.range(70, 150) * sc;
    const lx = x + Math.sin(a) * len;
    const ly = y - 100 * sc - Math.cos(a) * len;
    leaves += `<path d="M${f1(x)},${f1(y - 95 * sc)} Q${f1(x + Math.sin(a) * len * 0.2 - 20 * sc)},${f1(ly + 40 * sc)} ${f1(lx)},${f1(ly)} Q${f1(x + Math.sin(a) * len * 0.6 + 20 * sc)},${f1(ly + 50 * sc)} ${f1(x)},${f1(y - 95 * sc)}Z" fill="${r.pick([g.mid, g.dark, g.light])}"/>`;
  }
  return s + leaves;
}

function sceneInterior(ctx: Ctx): Scene {
  const r = ctx.r;
  const bx0 = W * r.range(0.14, 0.26);
  const bx1 = W * (1 - r.range(0.14, 0.26));
  const by0 = H * r.range(0.06, 0.14);
  const by1 = H * r.range(0.6, 0.68);
  const V: V2 = [bx0 + (bx1 - bx0) * r.range(0.4, 0.6), by0 + (by1 - by0) * r.range(0.42, 0.55)];
  const P = (x: number, y: number, s: number): V2 => [V[0] + (x - V[0]) * s, V[1] + (y - V[1]) * s];
  const S = 6;
  const wallCol = vary(r, r.pick(['#efe7da', '#f1e9dc', '#e9e4da', '#eadfcd', '#e4e8e4', '#f0e4d4']), 5);
  const woodCol = vary(r, r.pick(['#b8895e', '#c49a6c', '#a87d56', '#caa77e', '#9c7655']), 8);
  const accent = vary(r, r.pick(['#2f6f8a', '#4f8a86', '#c98a5a', '#7d9a7a', '#d1a55b', '#8aa2b8']), 8);
  let s = '';
  // walls, ceiling, floor
  s += rect(bx0, by0, bx1 - bx0, by1 - by0, lin(ctx, [[0, shade(wallCol, 0.04)], [1, shade(wallCol, -0.06)]]));
  s += poly([[bx0, by0], [bx0, by1], P(bx0, by1, S), P(bx0, by0, S)], lin(ctx, [[0, shade(wallCol, -0.16)], [1, shade(wallCol, -0.05)]], 0, 0, 1, 0));
  s += poly([[bx1, by0], [bx1, by1], P(bx1, by1, S), P(bx1, by0, S)], lin(ctx, [[0, shade(wallCol, -0.02)], [1, shade(wallCol, -0.12)]], 0, 0, 1, 0));
  s += poly([[bx0, by0], [bx1, by0], P(bx1, by0, S), P(bx0, by0, S)], lin(ctx, [[0, shade(wallCol, 0.1)], [1, shade(wallCol, -0.04)]], 0, 1, 0, 0));
  // wooden floor: planks converge on V
  let floor = poly([[bx0, by1], [bx1, by1], P(bx1, by1, S), P(bx0, by1, S)], woodCol);
  const planks = r.int(10, 16);
  for (let i = 0; i < planks; i++) {
    const xa = bx0 + ((bx1 - bx0) * i) / planks;
    const xb = bx0 + ((bx1 - bx0) * (i + 1)) / planks;
    floor += poly([[xa, by1], [xb, by1], P(xb, by1, S), P(xa, by1, S)], shade(vary(r, woodCol, 8), r.range(-0.06, 0.06)));
    floor += `<line x1="${f1(xa)}" y1="${f1(by1)}" x2="${f1(P(xa, by1, S)[0])}" y2="${f1(P(xa, by1, S)[1])}" stroke="${shade(woodCol, -0.4)}" stroke-width="1.5" stroke-opacity="0.5"/>`;
    // staggered end joints
    for (let j = 0; j < 3; j++) {
      const sj = 1 + r.range(0.05, 4);
      const a = P(xa, by1, sj);
      const b = P(xb, by1, sj);
      floor += line(a, b, shade(woodCol, -0.35), 1 + sj * 0.4, op(0.35));
    }
  }
  floor += poly([[bx0, by1], [bx1, by1], P(bx1, by1, S), P(bx0, by1, S)], lin(ctx, [[0, '#000000', 0.18], [0.5, '#000000', 0.02], [1, '#000000', 0.12]]));
  s += floor;
  // skirting
  s += rect(bx0, by1 - 12, bx1 - bx0, 12, shade(wallCol, 0.1));
  s += poly([[bx0, by1 - 12], [bx0, by1], P(bx0, by1, S), P(bx0, by1 - 12, S)], shade(wallCol, -0.05));
  s += poly([[bx1, by1 - 12], [bx1, by1], P(bx1, by1, S), P(bx1, by1 - 12, S)], shade(wallCol, -0.08));

  // window onto the sea
  const bw = bx1 - bx0;
  const bh = by1 - by0;
  const winW = bw * r.range(0.3, 0.45);
  const winX = bx0 + bw * r.range(0.06, 0.94) - winW / 2;
  const wx = Math.max(bx0 + bw * 0.05, Math.min(winX, bx1 - bw * 0.05 - winW));
  const wy = by0 + bh * r.range(0.12, 0.2);
  const wh = bh * r.range(0.5, 0.62);
  const view = miniView(ctx, wx, wy, winW, wh);
  s += `<g${blur(ctx, 6)}>${poly([[wx, by1], [wx + winW, by1], P(wx + winW + 60, by1, 2.4), P(wx - 60, by1, 2.4)], '#fff5dc', op(0.35))}</g>`;
  s += rect(wx - 14, wy - 14, winW + 28, wh + 28, shade(wallCol, 0.12));
  s += rect(wx - 14, wy + wh + 6, winW + 28, 14, shade(wallCol, -0.1));
  s += view;
  s += rect(wx + winW / 2 - 5, wy, 10, wh, '#f5f2ec') + rect(wx, wy, winW, 10, '#f5f2ec') + rect(wx, wy + wh - 10, winW, 10, '#f5f2ec');
  s += `<g${blur(ctx, 30)}>${rect(wx - 40, wy - 40, winW + 80, wh + 80, '#fff8e6', op(0.25))}</g>`;
  // curtains
  const cur = vary(r, r.pick(['#f3efe6', '#e8dccb', accent, '#dfe6e6']), 5);
  for (const side of [-1, 1]) {
    const cx0 = side < 0 ? wx - 70 : wx + winW + 10;
    const cw = 60 + r.range(0, 40);
    const folds = lin(ctx, [[0, shade(cur, -0.1)], [0.25, shade(cur, 0.08)], [0.5, shade(cur, -0.08)], [0.75, shade(cur, 0.06)], [1, shade(cur, -0.12)]], 0, 0, 1, 0);
    s += rect(side < 0 ? cx0 - cw + 60 : cx0, wy - 30, cw, wh + bh * 0.12, folds, op(0.95));
  }
  s += rect(wx - 100, wy - 36, winW + 200, 6, '#8a7a68');

  // furniture
  const fabric = vary(r, r.pick(['#f2eee7', '#e9e3d8', '#dcd6cc']), 4);
  const box = (x0: number, x1: number, yT: number, yB: number, s0: number, s1: number, c: string, topC = shade(c, 0.1)) => {
    let o = '';
    if (x0 > V[0]) o += poly([P(x0, yT, s0), P(x0, yB, s0), P(x0, yB, s1), P(x0, yT, s1)], shade(c, -0.15));
    if (x1 < V[0]) o += poly([P(x1, yT, s0), P(x1, yB, s0), P(x1, yB, s1), P(x1, yT, s1)], shade(c, -0.15));
    if (yT > V[1]) o += poly([P(x0, yT, s0), P(x1, yT, s0), P(x1, yT, s1), P(x0, yT, s1)], topC);
    const a = P(x0, yT, s1);
    const b = P(x1, yB, s1);
    o += rect(a[0], a[1], b[0] - a[0], b[1] - a[1], lin(ctx, [[0, c], [1, shade(c, -0.12)]]));
    return o;
  };
  const bedMode = r.chance(0.55);
  let furn = '';
  let shadow = '';
  if (bedMode) {
    const bwid = bw * r.range(0.38, 0.5);
    const cx = bx0 + bw * r.range(0.3, 0.7);
    const x0 = Math.max(bx0 + 20, Math.min(cx - bwid / 2, bx1 - 20 - bwid));
    const x1 = x0 + bwid;
    const len = r.range(0.55, 0.85);
    shadow += poly([P(x0 - 10, by1, 1.0), P(x1 + 10, by1, 1.0), P(x1 + 30, by1, 1.05 + len), P(x0 - 30, by1, 1.05 + len)], '#3a2e22');
    furn += box(x0 - 6, x1 + 6, by1 - bh * 0.42, by1, 1.0, 1.03, shade(woodCol, -0.1));
    furn += box(x0, x1, by1 - bh * 0.17, by1, 1.03, 1.03 + len, shade(woodCol, -0.15));
    furn += box(x0 + 4, x1 - 4, by1 - bh * 0.24, by1 - bh * 0.17, 1.03, 1.03 + len, fabric, shade(fabric, 0.06));
    // pillows
    const pw = (x1 - x0 - 30) / 2;
    for (let i = 0; i < 2; i++) {
      const px = x0 + 10 + i * (pw + 10);
      const a = P(px, by1 - bh * 0.3, 1.06);
      const b = P(px + pw, by1 - bh * 0.22, 1.06);
      furn += `<rect x="${f1(a[0])}" y="${f1(a[1])}" width="${f1(b[0] - a[0])}" height="${f1(b[1] - a[1])}" rx="${f1((b[1] - a[1]) * 0.4)}" fill="${shade(fabric, 0.06)}"/>`;
    }
    // blanket on the front half
    const bl = vary(r, accent, 6);
    furn += box(x0, x1, by1 - bh * 0.245, by1 - bh * 0.13, 1.03 + len * 0.45, 1.04 + len, bl, shade(bl, 0.12));
    // bedside table with a lamp
    const nx0 = x1 + 30;
    if (nx0 + 90 < bx1) {
      furn += box(nx0, nx0 + 80, by1 - bh * 0.2, by1, 1.02, 1.15, shade(woodCol, -0.05));
      furn += lamp(ctx, P(nx0 + 40, by1 - bh * 0.2, 1.08), bh * 0.22, accent);
    }
  } else {
    const swid = bw * r.range(0.45, 0.6);
    const x0 = bx0 + (bw - swid) * r.range(0.2, 0.8);
    const x1 = x0 + swid;
    const sofa = vary(r, r.pick(['#d8cfc0', '#8fa3a6', '#b9a58a', '#6f8a99', '#c8b8a0', accent]), 6);
    const sd = 0.18;
    shadow += poly([P(x0, by1, 1.0), P(x1, by1, 1.0), P(x1 + 30, by1, 1.1 + sd), P(x0 - 30, by1, 1.1 + sd)], '#3a2e22');
    furn += box(x0, x1, by1 - bh * 0.34, by1 - bh * 0.04, 1.0, 1.05, sofa);
    furn += box(x0, x1, by1 - bh * 0.15, by1 - bh * 0.03, 1.05, 1.02 + sd, sofa, shade(sofa, 0.12));
    furn += box(x0 - 24, x0 + 20, by1 - bh * 0.22, by1 - bh * 0.03, 1.0, 1.02 + sd, shade(sofa, -0.04));
    furn += box(x1 - 20, x1 + 24, by1 - bh * 0.22, by1 - bh * 0.03, 1.0, 1.02 + sd, shade(sofa, -0.04));
    furn += box(x0 + 10, x0 + 18, by1 - bh * 0.03, by1, 1.1, 1.12, '#4a3a2c') + box(x1 - 18, x1 - 10, by1 - bh * 0.03, by1, 1.1, 1.12, '#4a3a2c');
    // cushions
    for (let i = 0; i < 3; i++) {
      const cx = x0 + 30 + i * (swid - 60) / 2.2;
      const a = P(cx, by1 - bh * 0.3, 1.07);
      const b = P(cx + swid * 0.18, by1 - bh * 0.17, 1.07);
      furn += `<rect x="${f1(a[0])}" y="${f1(a[1])}" width="${f1(b[0] - a[0])}" height="${f1(b[1] - a[1])}" rx="8" fill="${r.pick([fabric, accent, shade(sofa, 0.2)])}"/>`;
    }
    // rug and coffee table
    const rugC = vary(r, r.pick(['#d9cdb8', '#c4b59c', '#e4dccd', '#b7a78f']), 6);
    furn += poly([P(x0 - 40, by1, 1.4), P(x1 + 40, by1, 1.4), P(x1 + 40, by1, 2.6), P(x0 - 40, by1, 2.6)], rugC, op(0.9));
    const tx0 = x0 + swid * 0.2;
    const tx1 = x1 - swid * 0.2;
    furn += box(tx0, tx1, by1 - bh * 0.12, by1 - bh * 0.1, 1.6, 2.0, shade(woodCol, -0.1));
    for (const [lx, ls] of [[tx0 + 5, 1.62], [tx1 - 15, 1.62], [tx0 + 5, 1.95], [tx1 - 15, 1.95]] as const) furn += box(lx, lx + 10, by1 - bh * 0.1, by1, ls, ls + 0.03, shade(woodCol, -0.3));
    const vase = P(tx0 + (tx1 - tx0) * 0.4, by1 - bh * 0.12, 1.8);
    furn += rect(vase[0] - 10, vase[1] - 46, 20, 46, '#f4f1ea') + grassTuft(r, vase[0], vase[1] - 40, 60, '#8b8a5a');
    furn += lamp(ctx, P(x1 + 70 < bx1 ? x1 + 60 : x0 - 60, by1, 1.1), bh * 0.8, accent, true);
  }
  s += `<g${blur(ctx, 18)}${op(0.3)}>${shadow}</g>` + furn;
  // a framed picture on the wall if there is room
  const pX = wx > bx0 + bw * 0.4 ? bx0 + bw * 0.12 : wx + winW + bw * 0.12;
  if (pX + bw * 0.16 < bx1 - 20) {
    const pw = bw * r.range(0.1, 0.15);
    const ph = pw * r.range(0.7, 1.3);
    const py = by0 + bh * 0.25;
    s += `<g${blur(ctx, 4)}>${rect(pX + 6, py + 8, pw, ph, '#000000', op(0.18))}</g>`;
    s += rect(pX, py, pw, ph, shade(woodCol, -0.25)) + rect(pX + 8, py + 8, pw - 16, ph - 16, '#f4efe4');
    s += rect(pX + 16, py + 16, pw - 32, (ph - 32) * 0.5, mix(accent, '#ffffff', 0.5)) + rect(pX + 16, py + 16 + (ph - 32) * 0.5, pw - 32, (ph - 32) * 0.5, mix('#d9c39a', '#ffffff', 0.3));
  }
  // warm light
  s += rect(0, 0, W, H, rad(ctx, [[0, '#fff1d0', 0.28], [1, '#fff1d0', 0]], wx + winW / 2, wy + wh / 2, W * 0.7));
  return { svg: s, warmth: r.range(0.3, 0.6) };
}

function miniView(ctx: Ctx, x: number, y: number, w: number, h: number): string {
  const r = ctx.r;
  const hz = y + h * r.range(0.4, 0.6);
  const sky = vary(r, '#9cc0dc', 8);
  const seaC = vary(r, '#5f97a6', 8);
  let s = rect(x, y, w, hz - y, lin(ctx, [[0, sky], [1, '#eef3f2']]));
  s += rect(x, hz, w, y + h - hz, lin(ctx, [[0, mix(seaC, '#eef3f2', 0.4)], [1, seaC]]));
  if (r.chance(0.5)) s += rect(x, y + h * 0.85, w, h * 0.15, '#e7d9b8');
  for (let i = 0; i < 3; i++) s += ell(x + r.range(0, w), y + r.range(0.05, 0.3) * h, r.range(30, 70), r.range(8, 16), '#ffffff', op(0.7));
  return `<g${blur(ctx, 2)}>${s}</g>` + rect(x, y, w, h, '#ffffff', op(0.18));
}

function lamp(ctx: Ctx, base: V2, h: number, accent: string, floor = false): string {
  const [x, y] = base;
  const shadeW = floor ? 90 : 60;
  const shadeH = floor ? 70 : 50;
  const top = y - h;
  let s = rect(x - 2.5, top + shadeH * 0.5, 5, h - shadeH * 0.5, '#4a3d30');
  s += floor ? ell(x, y, 36, 8, '#4a3d30') : ell(x, y - 4, 18, 6, mix(accent, '#ffffff', 0.2)) + rect(x - 16, y - 40, 32, 36, mix(accent, '#ffffff', 0.2));
  s += `<g${blur(ctx, 40)}>${ell(x, top + shadeH * 0.4, shadeW * 2.2, shadeW * 1.8, '#ffd89a', op(0.45))}</g>`;
  s += poly([[x - shadeW * 0.35, top], [x + shadeW * 0.35, top], [x + shadeW * 0.5, top + shadeH], [x - shadeW * 0.5, top + shadeH]], lin(ctx, [[0, '#fff3d6'], [1, '#f4d9a8']]));
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

function buildSvg(seed: number, kind: PhotoKind): string {
  const ctx: Ctx = { r: makeRand(seed, kind), defs: [], uid: 0, blurs: new Map() };
  const scene = SCENES[kind](ctx);
  // photographic finish: warm grade, gentle vignette
  const warm = rect(0, 0, W, H, '#ffb86b', ` style="mix-blend-mode:soft-light"${op(scene.warmth * 0.5)}`);
  const vignette = rect(0, 0, W, H, rad(ctx, [[0, '#000000', 0], [0.55, '#000000', 0], [1, '#1a1410', 0.42]], W / 2, H / 2, W * 0.72, H * 0.78));
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}"><defs>${ctx.defs.join('')}</defs>${scene.svg}${warm}${vignette}</svg>`;
}

let grainCache: Buffer | undefined;
/** Fixed luminance grain (deterministic), overlaid on every photo. */
function grain(): Buffer {
  if (grainCache) return grainCache;
  const next = rng(0x5eed);
  const buf = Buffer.alloc(W * H * 3);
  for (let i = 0; i < W * H; i++) {
    const v = 128 + (next() + next() + next() - 1.5) * 22;
    buf[i * 3] = v;
    buf[i * 3 + 1] = v;
    buf[i * 3 + 2] = v;
  }
  grainCache = buf;
  return buf;
}

/** Deterministic: the same (seed, kind) always gives the same bytes. JPEG, 1600x1067, quality ~78, progressive (mozjpeg), under ~350 KB. */
export async function makeDemoPhoto(seed: number, kind: PhotoKind): Promise<Uint8Array> {
  const svg = buildSvg(seed, kind);
  const base = await sharp(Buffer.from(svg)).blur(0.6).toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
  const out = await sharp(base.data, { raw: { width: base.info.width, height: base.info.height, channels: base.info.channels } })
    .removeAlpha()
    .composite([{ input: grain(), raw: { width: W, height: H, channels: 3 }, blend: 'soft-light' }])
    .jpeg({ quality: 78, progressive: true, mozjpeg: true })
    .toBuffer();
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
}

// ---------------------------------------------------------------------------------------------
// CLI: examples + contact sheet in /tmp/demo-photos/

if (import.meta.main) {
  const { mkdir, writeFile } = await import('node:fs/promises');
  const dir = '/tmp/demo-photos';
  await mkdir(dir, { recursive: true });
  const kinds = Object.keys(SCENES) as PhotoKind[];
  const perKind = Number(process.argv[2] ?? 2);
  const tiles: { input: Buffer; left: number; top: number }[] = [];
  const tw = 400;
  const th = Math.round((tw * H) / W);
  let total = 0;
  let bytes = 0;
  let n = 0;
  for (const [ki, kind] of kinds.entries()) {
    for (let i = 0; i < perKind; i++) {
      const seed = (ki * perKind + i + 1) * 7919;
      const t0 = performance.now();
      const jpg = await makeDemoPhoto(seed, kind);
      const dt = performance.now() - t0;
      total += dt;
      bytes += jpg.byteLength;
      n += 1;
      await writeFile(`${dir}/${kind}-${i + 1}.jpg`, jpg);
      console.log(`${kind}-${i + 1}.jpg  ${(jpg.byteLength / 1024).toFixed(0)} KB  ${dt.toFixed(0)} ms`);
      const idx = ki * perKind + i;
      const cols = 3;
      tiles.push({ input: await sharp(jpg).resize(tw, th).toBuffer(), left: (idx % cols) * tw, top: Math.floor(idx / cols) * th });
    }
  }
  const rows = Math.ceil(tiles.length / 3);
  await sharp({ create: { width: tw * 3, height: th * rows, channels: 3, background: '#ffffff' } }).composite(tiles).png().toFile(`${dir}/contact-sheet.png`);
  console.log(`${n} photos, avg ${(total / n).toFixed(0)} ms, avg ${(bytes / n / 1024).toFixed(0)} KB -> ${dir}/contact-sheet.png`);
}
