/**
 * NANP area codes outside the US: Canada and the Caribbean members.
 *
 * _source: /work/shared/compliance-rules.md Part A point 4, Part B §3.2 (Canadian split NPAs 250,
 * 418, 709, 807, 867, 879) and §3.5. Drafted from libphonenumber-js 1.13.16 regions and Google
 * libphonenumber's timezone map, reviewed by hand.
 *
 * Decision (rules leave it open): these numbers resolve to their zones and get the federal
 * 08:00-21:00 window in every zone (plus `lead_timezone`), with no US state rules; Canadian
 * numbers also get Canada's telemarketing hours (data/canada.ts). `region` is ISO 3166-2 for
 * Canada and the country code elsewhere, never a USPS state code. Where an area code's
 * exchanges may sit in several zones, every candidate zone is listed and the touch must pass in
 * all of them (the stricter of the candidates).
 */
import type { AreaCodeGroup } from './area-codes.js';

const ON = 'America/Toronto';
const PT = 'America/Vancouver';
const AB = 'America/Edmonton';
const AT = 'America/Halifax';

export const NON_US_AREA_CODES: readonly AreaCodeGroup[] = [
  { region: 'CA-AB', country: 'CA', zones: [AB], npas: [368, 403, 587, 780, 825] },
  {
    region: 'CA-BC',
    country: 'CA',
    // East Kootenay is Mountain; the Peace River region keeps UTC-7 all year.
    zones: [PT, AB, 'America/Fort_Nelson'],
    npas: [236, 250, 257, 604, 672, 778],
    npaZones: { 604: [PT] },
  },
  { region: 'CA-MB', country: 'CA', zones: ['America/Winnipeg'], npas: [204, 431, 584] },
  { region: 'CA-NB', country: 'CA', zones: ['America/Moncton'], npas: [428, 506] },
  // Labrador is on Atlantic time; exchanges of the Strait of Belle Isle may keep Atlantic time
  // without daylight saving, like Blanc-Sablon across the border.
  {
    region: 'CA-NL',
    country: 'CA',
    zones: ['America/St_Johns', AT, 'America/Blanc-Sablon'],
    npas: [709, 879],
  },
  { region: 'CA-NS/PE', country: 'CA', zones: [AT], npas: [782, 902] },
  {
    region: 'CA-ON',
    country: 'CA',
    zones: [ON],
    npas: [
      226, 249, 289, 343, 365, 382, 416, 437, 519, 548, 613, 647, 683, 705, 742, 753, 807, 905, 942,
    ],
    // Northwestern Ontario keeps Central time.
    npaZones: { 807: [ON, 'America/Winnipeg'] },
  },
  {
    region: 'CA-QC',
    country: 'CA',
    zones: [ON],
    npas: [263, 354, 367, 418, 438, 450, 468, 514, 579, 581, 819, 873],
    // Magdalen Islands (Atlantic) and the Lower North Shore (Atlantic, no DST).
    npaZones: {
      367: [ON, AT, 'America/Blanc-Sablon'],
      418: [ON, AT, 'America/Blanc-Sablon'],
      581: [ON, AT, 'America/Blanc-Sablon'],
    },
  },
  // Lloydminster (SK side) follows Alberta time.
  { region: 'CA-SK', country: 'CA', zones: ['America/Regina', AB], npas: [306, 474, 639] },
  {
    region: 'CA-YT/NT/NU',
    country: 'CA',
    zones: ['America/Whitehorse', AB, 'America/Winnipeg', ON],
    npas: [867],
  },
  { region: 'AG', country: 'AG', zones: ['America/Antigua'], npas: [268] },
  { region: 'AI', country: 'AI', zones: ['America/Anguilla'], npas: [264] },
  { region: 'BB', country: 'BB', zones: ['America/Barbados'], npas: [246] },
  { region: 'BM', country: 'BM', zones: ['Atlantic/Bermuda'], npas: [441] },
  { region: 'BS', country: 'BS', zones: ['America/Nassau'], npas: [242] },
  { region: 'DM', country: 'DM', zones: ['America/Dominica'], npas: [767] },
  { region: 'DO', country: 'DO', zones: ['America/Santo_Domingo'], npas: [809, 829, 849] },
  { region: 'GD', country: 'GD', zones: ['America/Grenada'], npas: [473] },
  { region: 'JM', country: 'JM', zones: ['America/Jamaica'], npas: [658, 876] },
  { region: 'KN', country: 'KN', zones: ['America/St_Kitts'], npas: [869] },
  { region: 'KY', country: 'KY', zones: ['America/Cayman'], npas: [345] },
  { region: 'LC', country: 'LC', zones: ['America/St_Lucia'], npas: [758] },
  { region: 'MS', country: 'MS', zones: ['America/Montserrat'], npas: [664] },
  { region: 'SX', country: 'SX', zones: ['America/Lower_Princes'], npas: [721] },
  { region: 'TC', country: 'TC', zones: ['America/Grand_Turk'], npas: [649] },
  { region: 'TT', country: 'TT', zones: ['America/Port_of_Spain'], npas: [868] },
  { region: 'VC', country: 'VC', zones: ['America/St_Vincent'], npas: [784] },
  { region: 'VG', country: 'VG', zones: ['America/Tortola'], npas: [284] },
];
