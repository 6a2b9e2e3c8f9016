/**
 * A minimal valid PDF, written by hand: one A4 or A6 page per label, each showing its tracking
 * number in Helvetica (a standard font, so nothing is embedded). Enough for a test to open the
 * file, count its pages and find the numbers in it.
 */

const PAGE_SIZES: Readonly<Record<string, readonly [number, number]>> = { A4: [595, 842], A6: [298, 420] };

/** Text inside a PDF string literal: backslash and parentheses escaped, anything outside printable ASCII replaced. */
const pdfText = (text: string): string => text.replace(/[^\x20-\x7e]/g, '?').replace(/[\\()]/g, (char) => `\\${char}`);

/** The label PDF of these tracking numbers, as latin-1 text (every character one byte). */
export function labelsPdf(trackingNumbers: readonly string[], size: string): string {
  const [width, height] = PAGE_SIZES[size] ?? PAGE_SIZES['A4'] ?? [595, 842];
  const objects: string[] = [];
  // 1: catalog, 2: pages, 3: font; then a page and its content stream per label.
  const pageIds = trackingNumbers.map((_, i) => 4 + i * 2);
  objects.push('<< /Type /Catalog /Pages 2 0 R >>');
  objects.push(`<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pageIds.length} >>`);
  objects.push('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  trackingNumbers.forEach((trackingNumber, i) => {
    const stream = `BT /F1 18 Tf 36 ${height - 60} Td (Airway bill) Tj 0 -32 Td /F1 28 Tf (${pdfText(trackingNumber)}) Tj ET`;
    objects.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${width} ${height}] /Resources << /Font << /F1 3 0 R >> >> /Contents ${5 + i * 2} 0 R >>`);
    objects.push(`<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`);
  });
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return out;
}
