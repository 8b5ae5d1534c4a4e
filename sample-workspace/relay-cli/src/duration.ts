/** `30s`, `5m`, `12h` or `4d` in seconds; undefined for anything else (or nothing). */
export function seconds(value: string | true | undefined): number | undefined {
  const m = typeof value === 'string' ? /^(\d+)([smhd])$/.exec(value) : null;
  if (!m) return undefined;
  const unit = { s: 1, m: 60, h: 3600, d: 86400 }[m[2] as 's' | 'm' | 'h' | 'd'];
  return Number(m[1]) * unit;
}
