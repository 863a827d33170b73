// The part of subset-font 2.9's API scripts/subset-fonts.ts uses (the package ships no types).
declare module 'subset-font' {
  type Options = {
    targetFormat?: 'woff2' | 'woff' | 'truetype' | 'sfnt';
    variationAxes?: Record<string, number | { min: number; max: number; default?: number }>;
  };
  export default function subsetFont(font: Buffer | Uint8Array, text: string, options?: Options): Promise<Buffer>;
}
