// Build-time photo optimisation: every cabin and gallery photo becomes AVIF and WebP in
// several widths under /_astro/, with its width and height known (no layout shift).
// A photo the build cannot read is replaced by the built-in fallback photo.
import { getImage, inferRemoteSize } from 'astro:assets';
import type { ImageMetadata as AstroImage } from 'astro';
import fallbackJpg from '../assets/stock/fallback.jpg';
import { apiBase } from '../lib/api.ts';
import { oncePerKey } from '../lib/once-per-key.ts';

/** A stored photo's address (/media/…) or a built-in photo imported from site/assets. */
export type PhotoSource = string | AstroImage;

/**
 * A built-in photo as Astro sees it. (The type checker may read an imported .jpg as
 * Cloudflare's unrelated global ImageMetadata, which the worker types also declare.)
 */
export const builtIn = (image: unknown): AstroImage => image as AstroImage;
const fallbackPhoto = builtIn(fallbackJpg);

export interface OptimizedPhoto {
  /** WebP at the largest width: the <img> src (and the viewer's full-size photo). */
  src: string;
  /** WebP srcset; empty when only the largest WebP is made (OptimizeOptions.webpSet false). */
  srcset: string;
  /** AVIF srcset, for a <source type="image/avif">. */
  avif: string;
  width: number;
  height: number;
}

export interface OptimizeOptions {
  /** Widths to produce, in pixels. */
  widths: number[];
  /** Crop to this width ÷ height; the photo's own ratio when absent. */
  aspect?: number;
  /** AVIF quality (WebP gets a matching one). */
  quality?: number;
  /**
   * false for a photo below the first screen: a browser without AVIF (Safari before 16.4) gets
   * its largest WebP alone, with no set to choose from; every other browser takes the AVIF set.
   * The page carries one address less per photo (~15 B compressed; 200 B on the home page),
   * which keeps it inside its first round trip (bench/speed-changes.md).
   */
  webpSet?: boolean;
}

/**
 * AVIF is made only up to this width: larger AVIF encodes take seconds each on a small build
 * machine; above it the browser takes the WebP.
 */
export const AVIF_MAX_WIDTH = 960;

/** A stored photo's absolute address on the API host, e.g. /media/x.jpg → http://127.0.0.1:8787/media/x.jpg */
export const remoteUrl = (src: string): string => new URL(src, apiBase()).href;

const sizes = oncePerKey();

/**
 * The natural size of a remote photo; null when the photo is not there or not readable as an
 * image (it then gets the fallback photo). A server or network failure is retried and then
 * fails the build, so the live site keeps its real photos rather than fallbacks.
 */
function remoteSize(url: string) {
  return sizes(url, () => probe(url));
}

async function probe(url: string, attempts = 3): Promise<{ width: number; height: number } | null> {
  for (let attempt = 1; ; attempt++) {
    let problem: unknown;
    try {
      const { width, height } = await inferRemoteSize(url);
      if (width > 0 && height > 0) return { width, height };
      problem = new Error('no dimensions');
    } catch (err) {
      problem = err;
    }
    const head = await fetch(url, { method: 'HEAD' }).catch(() => null);
    const missing = head !== null && (head.status === 404 || head.status === 410);
    if (missing || (head?.ok && attempt >= attempts)) {
      console.warn(
        `[images] ${url} ${missing ? 'is missing' : 'is not a readable image'}: using the fallback photo (${problem instanceof Error ? problem.message : problem})`,
      );
      return null;
    }
    if (attempt >= attempts) {
      throw new Error(`[images] cannot read ${url}: ${problem instanceof Error ? problem.message : problem}`, {
        cause: problem,
      });
    }
    await new Promise((r) => setTimeout(r, 400 * attempt));
  }
}

/**
 * What Astro reads for a photo, its size, and its photoKey: what names its optimised files
 * (image-service.ts), the same whichever host the build reads it from.
 */
async function resolve(
  src: PhotoSource,
): Promise<{ src: PhotoSource; photoKey: string; width: number; height: number }> {
  const builtInPhoto = (image: AstroImage) => ({
    src: image,
    photoKey: image.src,
    width: image.width,
    height: image.height,
  });
  if (typeof src !== 'string') return builtInPhoto(src);
  const url = remoteUrl(src);
  const size = await remoteSize(url);
  return size ? { src: url, photoKey: new URL(url).pathname, ...size } : builtInPhoto(fallbackPhoto);
}

export async function optimize(
  source: PhotoSource,
  { widths, aspect, quality = 50, webpSet = true }: OptimizeOptions,
): Promise<OptimizedPhoto> {
  const img = await resolve(source);
  const natural = img.width / img.height;
  const ratio = aspect ?? natural;
  // Never wider than the photo itself (or than its crop).
  const maxWidth = Math.min(Math.max(...widths), ratio > natural ? img.width : Math.round(img.height * ratio));
  const list = [...new Set(widths.map((w) => Math.min(w, maxWidth)))].sort((a, b) => a - b);
  const width = list[list.length - 1]!;
  const height = Math.round(width / ratio);
  const base = { src: img.src, photoKey: img.photoKey, width, height, widths: list, fit: 'cover' as const };
  // The AVIF set stops at AVIF_MAX_WIDTH; its own largest width is its main image, so no
  // larger AVIF is ever encoded.
  const avifWidths = list.filter((w) => w <= AVIF_MAX_WIDTH);
  if (avifWidths.length === 0) avifWidths.push(Math.min(list[0]!, AVIF_MAX_WIDTH));
  const avifWidth = avifWidths[avifWidths.length - 1]!;
  const [avif, webp] = await Promise.all([
    getImage({
      ...base,
      width: avifWidth,
      height: Math.round(avifWidth / ratio),
      widths: avifWidths,
      format: 'avif',
      quality,
    }),
    getImage({ ...base, widths: webpSet ? list : undefined, format: 'webp', quality: Math.min(90, quality + 22) }),
  ]);
  return { src: webp.src, srcset: webp.srcSet.attribute, avif: avif.srcSet.attribute, width, height };
}

/** A JPEG for link previews (WhatsApp, Telegram, VK read JPEG best): 1200×630. */
export async function ogImage(source: PhotoSource): Promise<{ src: string; width: number; height: number }> {
  const img = await resolve(source);
  const out = await getImage({
    src: img.src,
    photoKey: img.photoKey,
    width: 1200,
    height: 630,
    fit: 'cover',
    format: 'jpg',
    quality: 78,
  });
  return { src: out.src, width: 1200, height: 630 };
}
