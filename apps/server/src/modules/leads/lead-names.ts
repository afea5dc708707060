import { REGIONS, type Region } from '@crm/regions';

/**
 * Company names as the registry matches them: full- and half-width brackets alike, spaces
 * dropped, 有限责任公司 read as 有限公司, case folded. `nameGrams` are the 2-character pieces the
 * GIN index of lead_companies.name_grams holds (the SQL function crm_bigrams does the same).
 */

/** The normalized form stored in lead_companies.name_norm and compared by exact matches. */
export const normalizeName = (raw: string): string =>
  raw
    .normalize('NFKC')
    .replace(/[\s\u3000]+/g, '')
    .replace(/[【〔［[{｛]/g, '(')
    .replace(/[】〕］\]}｝]/g, ')')
    .replace(/有限责任公司/g, '有限公司')
    .replace(/[。.,，、;；]+$/g, '')
    .toLowerCase();

/** Distinct 2-character pieces (as crm_bigrams in SQL); a 1-character name has none. */
export const nameGrams = (norm: string): string[] => {
  const chars = [...norm];
  const grams = new Set<string>();
  for (let i = 0; i + 1 < chars.length; i++) grams.add(`${chars[i]}${chars[i + 1]}`);
  return [...grams];
};

// Words nearly every name holds: a lookup on them alone would match the whole registry.
const COMMON_WORDS = /(股份有限公司|有限公司|分公司|公司|集团|\(|\))/g;

/** The grams a lookup asks the index for: the query's own words, without 有限公司 and brackets. */
export const queryGrams = (norm: string): string[] => {
  const core = norm.replace(COMMON_WORDS, ' ');
  return [...new Set(core.split(' ').flatMap((part) => nameGrams(part)))];
};

/** 0–100: the Dice coefficient of the two names' grams (100 = the same normalized name). */
export const nameScore = (aNorm: string, bNorm: string): number => {
  if (aNorm === bNorm) return 100;
  const a = new Set(nameGrams(aNorm));
  const b = new Set(nameGrams(bNorm));
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  for (const g of a) if (b.has(g)) shared++;
  return Math.floor((200 * shared) / (a.size + b.size));
};

let regionPrefix: RegExp | undefined;
/** Province and city names, short and long ('深圳', '深圳市'), longest first. */
const regionPrefixPattern = () => {
  if (!regionPrefix) {
    const names = new Set<string>();
    const add = (r: Region) => {
      const short = r.label.replace(/(特别行政区|维吾尔自治区|壮族自治区|回族自治区|自治区|自治州|地区|省|市)$/, '');
      if (short.length >= 2) names.add(short);
    };
    for (const p of REGIONS) {
      add(p);
      for (const c of p.children) add(c);
    }
    const list = [...names].sort((a, b) => b.length - a.length).join('|');
    regionPrefix = new RegExp(`^((${list})(省|市|自治区|特别行政区)?)+`);
  }
  return regionPrefix;
};

/** The name without its leading province/city and its company form: what tells two spellings of one company apart. */
export const coreName = (norm: string) => {
  const stripped = norm.replace(regionPrefixPattern(), '').replace(/(股份有限公司|有限公司|分公司|公司)$/, '');
  return stripped.length >= 2 ? stripped : norm;
};

/** The grams a duplicate check or a batch's fuzzy step asks for: the core name's, city written or not. */
export const coreGrams = (norm: string) => queryGrams(coreName(norm));
