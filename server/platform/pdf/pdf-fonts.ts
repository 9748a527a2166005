import { createRequire } from 'node:module';

// DejaVu Sans covers Latin, Cyrillic and the currency signs Intl prints (€ ₽ ¥ £ and the
// narrow no-break space of French and Russian numbers); PDF's standard fonts cover none of
// Cyrillic. The TrueType files come from the `dejavu-fonts-ttf` npm package, a runtime
// dependency, so no system font package is needed. pdfkit embeds only the glyphs used.

export interface PdfFonts {
  regular: string;
  bold: string;
}

let resolved: PdfFonts | undefined;

/** Paths of the TrueType files; resolved once, on first use, so a bad install fails loudly. */
export function pdfFonts(): PdfFonts {
  if (!resolved) {
    const require = createRequire(import.meta.url);
    try {
      resolved = {
        regular: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'),
        bold: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf'),
      };
    } catch (cause) {
      throw new Error('DejaVu Sans not found: is the npm package dejavu-fonts-ttf installed?', {
        cause,
      });
    }
  }
  return resolved;
}
