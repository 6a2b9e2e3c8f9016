/**
 * The sandbox's lookup data: real Egyptian governorates (and two Saudi cities) with real zone
 * and district names in English and Arabic. Ids are derived from the names, so they never
 * change between runs and tests may hard-code them.
 */

/** Country ids the service uses (spec: Egypt in the address format, KSA in the marketplace text). */
export const SANDBOX_COUNTRY_IDS = { egypt: '60e4482c7cb7d4bc4849c4d5', ksa: 'eF-3f9FZr' } as const;

export interface SeedCity {
  readonly _id: string;
  readonly name: string;
  readonly otherName: string;
  readonly code: string;
  readonly countryId: string;
}

export interface SeedZone {
  readonly _id: string;
  readonly name: string;
  readonly otherName: string;
  readonly cityId: string;
}

/** Exactly the spec's District entry. */
interface SeedDistrictEntry {
  readonly zoneId: string;
  readonly zoneName: string;
  readonly zoneOtherName: string;
  readonly districtId: string;
  readonly districtName: string;
  readonly districtOtherName: string;
  readonly pickupAvailability: boolean;
  readonly dropOffAvailability: boolean;
  readonly coverage: string;
}

export interface SeedDistrict extends SeedDistrictEntry {
  readonly cityId: string;
}

/** `name|otherName`, then an optional flag: `-pickup` (no pickup) or `-dropoff` (no drop-off). */
type DistrictRow = string;
interface CityRow {
  readonly country: string;
  readonly name: string;
  readonly otherName: string;
  readonly zones: Readonly<Record<string, readonly DistrictRow[]>>;
}

const EG = SANDBOX_COUNTRY_IDS.egypt;
const SA = SANDBOX_COUNTRY_IDS.ksa;

const CITY_ROWS: readonly CityRow[] = [
  {
    country: EG,
    name: 'Cairo',
    otherName: 'القاهرة',
    zones: {
      'Nasr City|مدينة نصر': ['Makram Ebeid|مكرم عبيد', 'Abbas El Akkad|عباس العقاد', 'Seventh District|الحي السابع'],
      'Heliopolis|مصر الجديدة': ['Korba|الكوربة', 'Almaza|ألماظة', 'Sheraton|شيراتون'],
      'Maadi|المعادي': ['Degla|دجلة', 'Sarayat El Maadi|سرايات المعادي', 'Zahraa El Maadi|زهراء المعادي'],
      'Downtown|وسط البلد': ['Garden City|جاردن سيتي', 'Zamalek|الزمالك', 'Abdeen|عابدين'],
      'New Cairo|القاهرة الجديدة': [
        'Fifth Settlement|التجمع الخامس',
        'Rehab City|مدينة الرحاب',
        'Madinaty|مدينتي|-pickup',
        'Shorouk City|مدينة الشروق|-dropoff',
      ],
    },
  },
  {
    country: EG,
    name: 'Giza',
    otherName: 'الجيزة',
    zones: {
      'Dokki|الدقي': ['Dokki|الدقي', 'Mohandessin|المهندسين', 'Agouza|العجوزة'],
      'Haram|الهرم': ['Faisal|فيصل', 'Haram|الهرم'],
      '6th of October|السادس من أكتوبر': ['Sheikh Zayed|الشيخ زايد', 'Hadayek October|حدائق أكتوبر|-pickup'],
      'South Giza|جنوب الجيزة': ['Al Ayyat|العياط|-dropoff', 'Al Badrashin|البدرشين'],
    },
  },
  {
    country: EG,
    name: 'Alexandria',
    otherName: 'الإسكندرية',
    zones: {
      'Montaza|المنتزه': ['Sidi Bishr|سيدي بشر', 'Miami|ميامي', 'Mandara|المندرة'],
      'East Alexandria|شرق الإسكندرية': ['Smouha|سموحة', 'Sporting|سبورتنج', 'Roushdy|رشدي'],
      'Central Alexandria|وسط الإسكندرية': ['Raml Station|محطة الرمل', 'Manshia|المنشية'],
      'West Alexandria|غرب الإسكندرية': ['Agamy|العجمي', 'Borg El Arab|برج العرب|-pickup'],
    },
  },
  {
    country: EG,
    name: 'Qalyubia',
    otherName: 'القليوبية',
    zones: {
      'Shubra El Kheima|شبرا الخيمة': ['Shubra El Kheima|شبرا الخيمة', 'Bahtim|بهتيم'],
      'Banha|بنها': ['Banha|بنها', 'Qalyub|قليوب'],
    },
  },
  {
    country: EG,
    name: 'Dakahlia',
    otherName: 'الدقهلية',
    zones: {
      'Mansoura|المنصورة': ['Mansoura|المنصورة', 'Talkha|طلخا'],
      'Mit Ghamr|ميت غمر': ['Mit Ghamr|ميت غمر', 'Aga|أجا|-dropoff'],
    },
  },
  {
    country: EG,
    name: 'Sharqia',
    otherName: 'الشرقية',
    zones: {
      'Zagazig|الزقازيق': ['Zagazig|الزقازيق', 'Belbeis|بلبيس'],
      '10th of Ramadan|العاشر من رمضان': ['10th of Ramadan|العاشر من رمضان'],
    },
  },
  {
    country: EG,
    name: 'Gharbia',
    otherName: 'الغربية',
    zones: {
      'Tanta|طنطا': ['Tanta|طنطا', 'Kafr El Zayat|كفر الزيات'],
      'El Mahalla El Kubra|المحلة الكبرى': ['El Mahalla El Kubra|المحلة الكبرى'],
    },
  },
  {
    country: EG,
    name: 'Ismailia',
    otherName: 'الإسماعيلية',
    zones: {
      'Ismailia|الإسماعيلية': ['Ismailia|الإسماعيلية', 'Fayed|فايد'],
      'El Qantara|القنطرة': ['El Qantara|القنطرة|-dropoff'],
    },
  },
  {
    country: EG,
    name: 'Port Said',
    otherName: 'بورسعيد',
    zones: {
      'Port Said|بورسعيد': ['Al Sharq|حي الشرق', 'Al Arab|حي العرب'],
      'Port Fouad|بورفؤاد': ['Port Fouad|بورفؤاد'],
    },
  },
  {
    country: SA,
    name: 'Riyadh',
    otherName: 'الرياض',
    zones: { 'Al Olaya|العليا': ['Al Olaya|العليا', 'Al Sulimaniyah|السليمانية'] },
  },
  {
    country: SA,
    name: 'Jeddah',
    otherName: 'جدة',
    zones: { 'Al Rawdah|الروضة': ['Al Rawdah|الروضة', 'Al Hamra|الحمراء'] },
  },
];

/** Street codes the sandbox knows (format not shown by the spec); any other `streetCode` answers 3004. */
export const SANDBOX_STREET_CODES: readonly string[] = ['ST-0001', 'ST-0002', 'ST-0003', 'ST-0004', 'ST-0005'];

const slug = (text: string): string =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
const countryPrefix = (countryId: string): string => (countryId === EG ? 'eg' : 'sa');

function split(row: string): [string, string, string | undefined] {
  const [name = '', otherName = '', flag] = row.split('|');
  return [name, otherName, flag];
}

interface SeedData {
  readonly cities: readonly SeedCity[];
  readonly zones: readonly SeedZone[];
  readonly districts: readonly SeedDistrict[];
}

function build(): SeedData {
  const cities: SeedCity[] = [];
  const zones: SeedZone[] = [];
  const districts: SeedDistrict[] = [];
  const counters: Record<string, number> = {};
  for (const row of CITY_ROWS) {
    const prefix = countryPrefix(row.country);
    const number = (counters[prefix] = (counters[prefix] ?? 0) + 1);
    const city: SeedCity = {
      _id: `city-${prefix}-${slug(row.name)}`,
      name: row.name,
      otherName: row.otherName,
      code: `${prefix.toUpperCase()}-${String(number).padStart(2, '0')}`,
      countryId: row.country,
    };
    cities.push(city);
    for (const [zoneRow, districtRows] of Object.entries(row.zones)) {
      const [zoneName, zoneOtherName] = split(zoneRow);
      const zone: SeedZone = { _id: `zone-${prefix}-${slug(row.name)}-${slug(zoneName)}`, name: zoneName, otherName: zoneOtherName, cityId: city._id };
      zones.push(zone);
      for (const districtRow of districtRows) {
        const [districtName, districtOtherName, flag] = split(districtRow);
        districts.push({
          cityId: city._id,
          zoneId: zone._id,
          zoneName: zone.name,
          zoneOtherName: zone.otherName,
          districtId: `district-${prefix}-${slug(row.name)}-${slug(districtName)}`,
          districtName,
          districtOtherName,
          pickupAvailability: flag !== '-pickup',
          dropOffAvailability: flag !== '-dropoff',
          coverage: flag === undefined ? 'OWN_FLEET' : 'PARTNER',
        });
      }
    }
  }
  return { cities, zones, districts };
}

let memo: SeedData | undefined;

/** The seeded lookup data, built on first use. */
export function seedData(): SeedData {
  memo ??= build();
  return memo;
}

/** The spec's District entry of a seeded district (without the sandbox's own `cityId`). */
export function districtEntry(district: SeedDistrict): SeedDistrictEntry {
  const { cityId: _cityId, ...entry } = district;
  return entry;
}
