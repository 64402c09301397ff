/**
 * NANP area code (NPA) → region and IANA zones, for US states, DC and the US territories.
 *
 * _source: /work/shared/compliance-rules.md Part A point 4 and point 6; Part B §3.2 (multi-zone
 * NPAs and LiveVox's split list), §3.4 (exchange-level checks) and §3.5 (unknown-zone policy).
 * Drafted from the NPA list that libphonenumber-js 1.13.16 (max metadata) accepts as valid US
 * numbers and from Google libphonenumber's resources/timezones/map_data.txt, then reviewed by hand.
 * Review quarterly: NANPA opens new overlays several times a year; an NPA missing here resolves to
 * `location_unresolved`, which blocks (the safe failure).
 *
 * Split NPAs list EVERY zone they span; the engine takes the intersection of the windows.
 * Overlays take the zones of the area they overlay: 402/531 serve eastern Nebraska (Central only;
 * the Mountain panhandle is 308), 947/679 overlay 248 in Oakland County (Eastern only). A vendor
 * table's extra zone there blocked an hour a day of lawful touches.
 * Overlays newer than libphonenumber-js 1.13.16's metadata come from NANPA's relief
 * announcements: 436 (OH, overlays 440), 624 (NY, 716), 861 (IL, 815/779), 357 (CA, 559).
 */

export interface AreaCodeGroup {
  /** USPS code of the state, DC or territory (PR, VI, GU, MP, AS). */
  readonly region: string;
  /** ISO 3166-1 alpha-2 country of the numbers (US, or the territory's own code). */
  readonly country: string;
  /** Zones of every NPA in the group unless `npaZones` says otherwise. */
  readonly zones: readonly string[];
  readonly npas: readonly number[];
  /** NPAs whose zones differ from the group's (mostly split NPAs): their full list. */
  readonly npaZones?: Readonly<Record<number, readonly string[]>>;
}

const ET = 'America/New_York';
const CT = 'America/Chicago';
const MT = 'America/Denver';
const PT = 'America/Los_Angeles';
const AZ = 'America/Phoenix';
const BOISE = 'America/Boise';
const IN_ET = 'America/Indiana/Indianapolis';
const KY_ET = 'America/Kentucky/Louisville';
const MI_ET = 'America/Detroit';

export const US_AREA_CODES: readonly AreaCodeGroup[] = [
  { region: 'AL', country: 'US', zones: [CT], npas: [205, 251, 256, 334, 659, 938] },
  { region: 'AK', country: 'US', zones: ['America/Anchorage', 'America/Adak'], npas: [907] },
  // Phoenix only: the Navajo Nation (DST, Mountain) lies wholly inside 928.
  {
    region: 'AZ',
    country: 'US',
    zones: [AZ],
    npas: [480, 520, 602, 623, 928],
    npaZones: { 928: [AZ, MT] },
  },
  { region: 'AR', country: 'US', zones: [CT], npas: [327, 479, 501, 870] },
  {
    region: 'CA',
    country: 'US',
    zones: [PT],
    npas: [
      209, 213, 279, 310, 323, 341, 350, 357, 369, 408, 415, 424, 442, 510, 530, 559, 562, 619, 626,
      628, 650, 657, 661, 669, 707, 714, 738, 747, 760, 805, 818, 820, 831, 840, 858, 909, 916, 925,
      949, 951,
    ],
  },
  { region: 'CO', country: 'US', zones: [MT], npas: [303, 719, 720, 748, 970, 983] },
  { region: 'CT', country: 'US', zones: [ET], npas: [203, 475, 860, 959] },
  { region: 'DE', country: 'US', zones: [ET], npas: [302] },
  { region: 'DC', country: 'US', zones: [ET], npas: [202, 771] },
  {
    region: 'FL',
    country: 'US',
    zones: [ET],
    npas: [
      239, 305, 321, 324, 352, 386, 407, 448, 561, 645, 656, 689, 727, 728, 754, 772, 786, 813, 850,
      863, 904, 941, 954,
    ],
    // The panhandle west of the Apalachicola is Central; 448 overlays 850.
    npaZones: { 448: [CT, ET], 850: [CT, ET] },
  },
  {
    region: 'GA',
    country: 'US',
    zones: [ET],
    npas: [229, 404, 470, 478, 678, 706, 762, 770, 912, 943],
  },
  { region: 'HI', country: 'US', zones: ['Pacific/Honolulu'], npas: [808] },
  { region: 'ID', country: 'US', zones: [BOISE, PT], npas: [208, 986] },
  {
    region: 'IL',
    country: 'US',
    zones: [CT],
    npas: [217, 224, 309, 312, 331, 447, 464, 618, 630, 708, 730, 773, 779, 815, 847, 861, 872],
  },
  {
    region: 'IN',
    country: 'US',
    zones: [IN_ET],
    npas: [219, 260, 317, 463, 574, 765, 812, 930],
    // NW and SW Indiana keep Central time.
    npaZones: { 219: [CT, IN_ET], 574: [CT, IN_ET], 812: [CT, IN_ET], 930: [CT, IN_ET] },
  },
  { region: 'IA', country: 'US', zones: [CT], npas: [319, 515, 563, 641, 712] },
  {
    region: 'KS',
    country: 'US',
    zones: [CT],
    npas: [316, 620, 785, 913],
    npaZones: { 620: [CT, MT], 785: [CT, MT] },
  },
  {
    region: 'KY',
    country: 'US',
    zones: [KY_ET],
    npas: [270, 364, 502, 606, 859],
    npaZones: { 270: [CT, KY_ET], 364: [CT, KY_ET], 606: [CT, KY_ET] },
  },
  { region: 'LA', country: 'US', zones: [CT], npas: [225, 318, 337, 504, 985] },
  { region: 'ME', country: 'US', zones: [ET], npas: [207] },
  { region: 'MD', country: 'US', zones: [ET], npas: [227, 240, 301, 410, 443, 667] },
  {
    region: 'MA',
    country: 'US',
    zones: [ET],
    npas: [339, 351, 413, 508, 617, 774, 781, 857, 978],
  },
  {
    region: 'MI',
    country: 'US',
    zones: [MI_ET],
    npas: [231, 248, 269, 313, 517, 586, 616, 679, 734, 810, 906, 947, 989],
    // 906: four Upper Peninsula counties on Central. 679 and 947 overlay 248: Eastern only.
    npaZones: { 906: ['America/Menominee', MI_ET] },
  },
  {
    region: 'MN',
    country: 'US',
    zones: [CT],
    npas: [218, 320, 507, 612, 651, 763, 952],
  },
  { region: 'MS', country: 'US', zones: [CT], npas: [228, 601, 662, 769] },
  {
    region: 'MO',
    country: 'US',
    zones: [CT],
    npas: [235, 314, 417, 557, 573, 636, 660, 816, 975],
  },
  { region: 'MT', country: 'US', zones: [MT], npas: [406] },
  // 308 (the west and the panhandle) spans Central and Mountain; 402/531 (the east) are Central.
  { region: 'NE', country: 'US', zones: [CT], npas: [308, 402, 531], npaZones: { 308: [CT, MT] } },
  {
    region: 'NV',
    country: 'US',
    zones: [PT],
    npas: [702, 725, 775],
    // West Wendover (775) keeps Mountain time.
    npaZones: { 775: [PT, MT] },
  },
  { region: 'NH', country: 'US', zones: [ET], npas: [603] },
  {
    region: 'NJ',
    country: 'US',
    zones: [ET],
    npas: [201, 551, 609, 640, 732, 848, 856, 862, 908, 973],
  },
  { region: 'NM', country: 'US', zones: [MT], npas: [505, 575] },
  {
    region: 'NY',
    country: 'US',
    zones: [ET],
    npas: [
      212, 315, 329, 332, 347, 363, 516, 518, 585, 607, 624, 631, 646, 680, 716, 718, 838, 845, 914,
      917, 929, 934,
    ],
  },
  {
    region: 'NC',
    country: 'US',
    zones: [ET],
    npas: [252, 336, 472, 704, 743, 828, 910, 919, 980, 984],
  },
  { region: 'ND', country: 'US', zones: [CT, MT], npas: [701] },
  {
    region: 'OH',
    country: 'US',
    zones: [ET],
    npas: [216, 220, 234, 283, 326, 330, 380, 419, 436, 440, 513, 567, 614, 740, 937],
  },
  { region: 'OK', country: 'US', zones: [CT], npas: [405, 539, 572, 580, 918] },
  {
    region: 'OR',
    country: 'US',
    zones: [PT],
    npas: [458, 503, 541, 971],
    // Malheur County (541/458) keeps Mountain time.
    npaZones: { 458: [PT, BOISE], 541: [PT, BOISE] },
  },
  {
    region: 'PA',
    country: 'US',
    zones: [ET],
    npas: [215, 223, 267, 272, 412, 445, 484, 570, 582, 610, 717, 724, 814, 835, 878],
  },
  { region: 'RI', country: 'US', zones: [ET], npas: [401] },
  { region: 'SC', country: 'US', zones: [ET], npas: [803, 821, 839, 843, 854, 864] },
  { region: 'SD', country: 'US', zones: [CT, MT], npas: [605] },
  {
    region: 'TN',
    country: 'US',
    zones: [CT],
    npas: [423, 615, 629, 731, 865, 901, 931],
    // East Tennessee is Eastern; 423 also reaches Central counties (Marion, Bledsoe, Sequatchie).
    npaZones: { 423: [CT, ET], 865: [ET] },
  },
  {
    region: 'TX',
    country: 'US',
    zones: [CT],
    npas: [
      210, 214, 254, 281, 325, 346, 361, 409, 430, 432, 469, 512, 682, 713, 726, 737, 806, 817, 830,
      832, 903, 915, 936, 940, 945, 956, 972, 979,
    ],
    // El Paso and Hudspeth counties are Mountain.
    npaZones: { 915: [MT] },
  },
  { region: 'UT', country: 'US', zones: [MT], npas: [385, 435, 801] },
  { region: 'VT', country: 'US', zones: [ET], npas: [802] },
  {
    region: 'VA',
    country: 'US',
    zones: [ET],
    npas: [276, 434, 540, 571, 686, 703, 757, 804, 826, 948],
  },
  { region: 'WA', country: 'US', zones: [PT], npas: [206, 253, 360, 425, 509, 564] },
  { region: 'WV', country: 'US', zones: [ET], npas: [304, 681] },
  {
    region: 'WI',
    country: 'US',
    zones: [CT],
    npas: [262, 274, 353, 414, 534, 608, 715, 920],
  },
  { region: 'WY', country: 'US', zones: [MT], npas: [307] },
  // Territories: their own zones, no DST; the TCPA applies (Part B §3.2).
  { region: 'PR', country: 'PR', zones: ['America/Puerto_Rico'], npas: [787, 939] },
  { region: 'VI', country: 'VI', zones: ['America/St_Thomas'], npas: [340] },
  { region: 'GU', country: 'GU', zones: ['Pacific/Guam'], npas: [671] },
  { region: 'MP', country: 'MP', zones: ['Pacific/Saipan'], npas: [670] },
  { region: 'AS', country: 'AS', zones: ['Pacific/Pago_Pago'], npas: [684] },
];
