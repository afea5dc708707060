/**
 * The preview of a generated seal before it is saved: a red ring, the company name on the upper
 * arc, a five-pointed star in the middle and the seal's kind below it — the look the server draws.
 */
type Props = { companyName: string; kind: string; size?: number };

const RED = '#d9001b';

const starPath = (cx: number, cy: number, outer: number) => {
  const inner = outer * 0.382;
  const points: string[] = [];
  for (let i = 0; i < 10; i++) {
    const r = i % 2 === 0 ? outer : inner;
    const a = -Math.PI / 2 + (i * Math.PI) / 5;
    points.push(`${(cx + r * Math.cos(a)).toFixed(2)},${(cy + r * Math.sin(a)).toFixed(2)}`);
  }
  return `M${points.join('L')}Z`;
};

export const SealSvg = ({ companyName, kind, size = 180 }: Props) => {
  const c = 100;
  const chars = [...(companyName || '企业名称')];
  // the name spreads over about 240° of the upper arc, wider names squeeze closer
  const span = Math.min(250, Math.max(120, chars.length * 22));
  const start = -90 - span / 2;
  const step = chars.length > 1 ? span / (chars.length - 1) : 0;
  const fontSize = chars.length > 16 ? 13 : chars.length > 12 ? 15 : 17;
  return (
    <svg width={size} height={size} viewBox="0 0 200 200" role="img" aria-label={`${companyName}${kind}预览`}>
      <circle cx={c} cy={c} r={92} fill="none" stroke={RED} strokeWidth={6} />
      {chars.map((ch, i) => {
        const deg = chars.length === 1 ? -90 : start + i * step;
        const rad = (deg * Math.PI) / 180;
        const x = c + 70 * Math.cos(rad);
        const y = c + 70 * Math.sin(rad);
        return (
          <text
            // biome-ignore lint/suspicious/noArrayIndexKey: a name may repeat a character; the place is the identity
            key={i}
            x={x}
            y={y}
            fill={RED}
            fontSize={fontSize}
            fontWeight={700}
            textAnchor="middle"
            dominantBaseline="central"
            transform={`rotate(${deg + 90} ${x} ${y})`}
            fontFamily='"SimSun","Noto Serif SC",serif'
          >
            {ch}
          </text>
        );
      })}
      <path d={starPath(c, c, 26)} fill={RED} />
      <text
        x={c}
        y={150}
        fill={RED}
        fontSize={15}
        fontWeight={700}
        textAnchor="middle"
        fontFamily='"SimSun","Noto Serif SC",serif'
      >
        {kind}
      </text>
    </svg>
  );
};
