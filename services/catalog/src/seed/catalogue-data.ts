/**
 * The content the demo catalogue is made of: real brands with their part-number formats, the
 * categories of parts they make, and what each category's parts look like. Data only, no logic.
 *
 * Part-number patterns: `#` a digit, `@` a letter (no I or O), `{a|b}` one of the choices,
 * anything else literal. The generator numbers parts per pattern so no number repeats.
 */

/** How a part is drawn and which specification table it gets (part-image.ts, generate.ts). */
export type Shape =
  | 'filter' | 'injector' | 'turbo' | 'piston' | 'gear' | 'shaft' | 'bearing' | 'ring' | 'roller'
  | 'chain' | 'tooth' | 'edge' | 'hose' | 'fitting' | 'pump' | 'valve' | 'ram' | 'sensor' | 'module'
  | 'disc' | 'bit' | 'fork' | 'radiator' | 'plate' | 'wheel' | 'belt' | 'motor' | 'light' | 'gasket';

/** Groups of categories a brand supplies. */
export type Group =
  | 'filters' | 'engine' | 'fuel' | 'turbo' | 'cooling' | 'hydraulics' | 'undercarriage' | 'get'
  | 'drivetrain' | 'bearings' | 'electrical' | 'brakes' | 'mining' | 'forklift' | 'power' | 'agri' | 'cab';

export interface CategoryDef {
  name: string;
  group: Group;
  shape: Shape;
  /** Product names, the brand and the part number are added around them. */
  names: string[];
  /** Weight range in kg. */
  kg: [number, number];
  /** Specification values the category's parts take where the shape's general list does not fit them (a thermostat opens by wax, not by solenoid). */
  specs?: Record<string, string[]>;
  /** What a product name states, by name: a "24V Starter Motor" is 24 V, a "Spin-On Lube Filter" spin-on. Over `specs`. */
  named?: Record<string, Record<string, string[]>>;
}

export interface BrandDef {
  name: string;
  /** Short code used in SKUs (unique). */
  code: string;
  /** Hex colour the part pictures are tinted with. */
  color: string;
  groups: Group[];
  /** Part-number patterns; brands sharing a `numbering` share one sequence (e.g. Case and New Holland, both CNH). */
  formats: string[];
  /** Per-category patterns (filter makers encode the filter type in the prefix). */
  formatsByCategory?: Record<string, string[]>;
  numbering?: string;
  /** Category slugs left out although their group is supplied (gensets have no cab filters). */
  exclude?: string[];
  /** Relative share of the catalogue. */
  weight: number;
  /** Machines or engines the brand's parts fit (component makers borrow them from OEMs). */
  models?: string[];
  country: string;
}

const MACHINE: Group[] = [
  'filters', 'engine', 'fuel', 'turbo', 'cooling', 'hydraulics', 'undercarriage', 'get', 'drivetrain',
  'bearings', 'electrical', 'brakes', 'cab',
];
const FARM: Group[] = [...MACHINE.filter((g) => g !== 'get'), 'agri'];
const ENGINE: Group[] = ['filters', 'engine', 'fuel', 'turbo', 'cooling', 'electrical'];
const POWER: Group[] = ['power', 'engine', 'filters', 'electrical', 'cooling'];
/** Filters an engine or generator maker does not make. */
const NOT_ENGINE_FILTERS = ['cabin-air-filters', 'hydraulic-filters', 'transmission-filters'];
const LIFT: Group[] = ['forklift', 'filters', 'engine', 'brakes', 'electrical', 'hydraulics', 'drivetrain', 'cab'];

export const BRANDS: BrandDef[] = [
  { name: 'Caterpillar', code: 'CAT', color: '#E8A400', groups: MACHINE, formats: ['#@-####', '###-####'], numbering: 'cat', weight: 9, country: 'USA',
    models: ['320D Excavator', '336F Excavator', 'D6T Dozer', 'D9R Dozer', '950H Wheel Loader', '966M Wheel Loader', '140M Motor Grader', '777F Haul Truck', 'C15 Engine', '3306 Engine', '432F Backhoe Loader'] },
  { name: 'Komatsu', code: 'KOM', color: '#1B4F9C', groups: MACHINE, formats: ['###-###-####', '####-##-####', '##@-##-#####'], weight: 7, country: 'Japan',
    models: ['PC200-8 Excavator', 'PC300-7 Excavator', 'PC1250-8 Excavator', 'D65EX-16 Dozer', 'D155AX-6 Dozer', 'WA380-6 Wheel Loader', 'HD785-7 Dump Truck', 'SAA6D107E Engine'] },
  { name: 'John Deere', code: 'JD', color: '#367C2B', groups: FARM, formats: ['{RE|AR|AT|AH|AL|DZ}######'], weight: 6, country: 'USA',
    models: ['8R 370 Tractor', '6155M Tractor', 'S780 Combine', '310SL Backhoe', '644K Wheel Loader', '850K Dozer', '6068H Engine'] },
  { name: 'Volvo CE', code: 'VOE', color: '#1F3A68', groups: MACHINE, formats: ['VOE########'], weight: 5, country: 'Sweden',
    models: ['EC210B Excavator', 'EC480D Excavator', 'L120H Wheel Loader', 'L220G Wheel Loader', 'A40G Articulated Hauler', 'D13 Engine'] },
  { name: 'Hitachi', code: 'HIT', color: '#E8661C', groups: MACHINE, formats: ['4######', 'YA00######'], weight: 4, country: 'Japan',
    models: ['ZX200-5G Excavator', 'ZX350LC-6 Excavator', 'ZX870LCH-5 Excavator', 'EX1200-6 Excavator', 'ZW220 Wheel Loader'] },
  { name: 'Liebherr', code: 'LIE', color: '#D9A900', groups: MACHINE, formats: ['{100|101|110|920|950}#####'], weight: 3, country: 'Germany',
    models: ['R 9400 Mining Excavator', 'R 936 Excavator', 'L 566 Wheel Loader', 'PR 736 Dozer', 'LTM 1100 Mobile Crane', 'D946 Engine'] },
  { name: 'JCB', code: 'JCB', color: '#D99A00', groups: MACHINE, formats: ['###/#####', '###/@####'], weight: 4, country: 'United Kingdom',
    models: ['3CX Backhoe Loader', '4CX Backhoe Loader', 'JS220 Excavator', '531-70 Telehandler', '8018 Mini Excavator', '457 Wheel Loader'] },
  { name: 'Case', code: 'CASE', color: '#B5121B', groups: FARM, formats: ['{84|87|47|48}######'], numbering: 'cnh', weight: 3, country: 'USA',
    models: ['580 Super N Backhoe', 'CX210D Excavator', '821G Wheel Loader', 'Magnum 340 Tractor', 'Axial-Flow 8250 Combine'] },
  { name: 'New Holland', code: 'NH', color: '#0061A8', groups: FARM, formats: ['{84|87|47|48}######'], numbering: 'cnh', weight: 3, country: 'Italy',
    models: ['T7.270 Tractor', 'T8.410 Tractor', 'CR10.90 Combine', 'L230 Skid Steer', 'BigBaler 1290'] },
  { name: 'Doosan', code: 'DOO', color: '#E35205', groups: MACHINE, formats: ['4#####-#####', 'K1######'], weight: 3, country: 'South Korea',
    models: ['DX225LCA Excavator', 'DX340LC Excavator', 'DL420 Wheel Loader', 'DA40 Articulated Dump Truck', 'DL08 Engine'] },
  { name: 'Hyundai CE', code: 'HYU', color: '#00427A', groups: MACHINE, formats: ['##@#-#####', 'XK@@-#####'], weight: 3, country: 'South Korea',
    models: ['R220LC-9A Excavator', 'R300LC-9S Excavator', 'HX380L Excavator', 'HL960 Wheel Loader', 'HL757-9 Wheel Loader'] },
  { name: 'Kubota', code: 'KUB', color: '#E5681A', groups: FARM, formats: ['{1G|1J|1E|3C|HH|W9}###-#####'], weight: 3, country: 'Japan',
    models: ['M7-172 Tractor', 'L3901 Tractor', 'KX080-4 Excavator', 'SVL95-2s Track Loader', 'V3800 Engine', 'D1105 Engine'] },
  { name: 'Deutz', code: 'DEU', color: '#00843D', groups: ENGINE, formats: ['0{1|2|4}######'], exclude: NOT_ENGINE_FILTERS, weight: 3, country: 'Germany',
    models: ['TCD 2013 Engine', 'BF4M1013 Engine', 'F3L912 Engine', 'TCD 6.1 Engine', 'BF6M2012 Engine'] },
  { name: 'Cummins', code: 'CUM', color: '#C8102E', groups: ENGINE, formats: ['{3|4|5}######'], exclude: NOT_ENGINE_FILTERS, weight: 5, country: 'USA',
    models: ['QSB6.7 Engine', 'ISX15 Engine', 'QSK60 Engine', '6BT5.9 Engine', 'QSM11 Engine', 'KTA50 Engine'] },
  { name: 'Perkins', code: 'PER', color: '#005EB8', groups: ENGINE, formats: ['{2|4|3}###@###', '{CH|SE|T}#####'], exclude: NOT_ENGINE_FILTERS, weight: 4, country: 'United Kingdom',
    models: ['1104D-44T Engine', '1106A-70TAG Engine', '404D-22 Engine', '2806A-E18 Engine', '4008-30TAG Engine'] },
  { name: 'MTU', code: 'MTU', color: '#00467F', groups: ENGINE, formats: ['{000|555|001|535}#######'], exclude: NOT_ENGINE_FILTERS, weight: 2, country: 'Germany',
    models: ['16V4000 Engine', '12V2000 Engine', '20V4000 Engine', 'Series 60 Engine'] },
  { name: 'Detroit Diesel', code: 'DDC', color: '#A6192E', groups: ENGINE, formats: ['{23|R23}######', 'A4{60|70|71}#######'], exclude: NOT_ENGINE_FILTERS, weight: 2, country: 'USA',
    models: ['Series 60 Engine', 'DD15 Engine', 'DD13 Engine', '12V-71 Engine', '16V-149 Engine'] },
  { name: 'Bosch Rexroth', code: 'REX', color: '#D50032', groups: ['hydraulics', 'electrical'], formats: ['R90#######'], weight: 3, country: 'Germany' },
  { name: 'Parker', code: 'PAR', color: '#B38F00', groups: ['hydraulics', 'filters'], formats: ['3349######', '{D1|D3}VW0##C{N|V}JW##'], weight: 3, country: 'USA',
    formatsByCategory: Object.fromEntries(['oil-filters', 'fuel-filters', 'fuel-water-separators', 'hydraulic-filters', 'air-filters', 'cabin-air-filters', 'coolant-filters', 'transmission-filters', 'breather-filters'].map((s) => [s, ['9#####Q', '{G|V}#####']])) },
  { name: 'Donaldson', code: 'DON', color: '#003DA5', groups: ['filters'], formats: ['P######'], weight: 4, country: 'USA' },
  { name: 'Fleetguard', code: 'FLG', color: '#B0182B', groups: ['filters'], formats: ['LF#####'], weight: 4, country: 'USA',
    formatsByCategory: {
      'oil-filters': ['LF####', 'LF#####'], 'fuel-filters': ['FF####', 'FF#####'], 'fuel-water-separators': ['FS####', 'FS#####'],
      'hydraulic-filters': ['HF####', 'HF#####'], 'air-filters': ['AF####', 'AF#####'], 'cabin-air-filters': ['AF#####'],
      'coolant-filters': ['WF####'], 'transmission-filters': ['LF#####'], 'breather-filters': ['AF#####'],
    } },
  { name: 'Baldwin', code: 'BAL', color: '#0B4F8A', groups: ['filters'], formats: ['B#####'], weight: 3, country: 'USA',
    formatsByCategory: {
      'oil-filters': ['B####', 'B#####'], 'fuel-filters': ['BF####', 'BF#####'], 'fuel-water-separators': ['BF####-SP'],
      'hydraulic-filters': ['PT####', 'PT####-MPG'], 'air-filters': ['RS####', 'PA####'], 'cabin-air-filters': ['PA#####'],
      'coolant-filters': ['BW####'], 'transmission-filters': ['PT#####'], 'breather-filters': ['BT####-10'],
    } },
  { name: 'Mann-Filter', code: 'MANN', color: '#137A3D', groups: ['filters'], formats: ['{W|WK|WD|HD|C|P} ###/##'], weight: 2, country: 'Germany' },
  { name: 'Timken', code: 'TIM', color: '#E35F1E', groups: ['bearings'], formats: ['{LM|HM|JLM|JM}######', 'Set ####'], weight: 2, country: 'USA' },
  { name: 'SKF', code: 'SKF', color: '#0F58D6', groups: ['bearings'], formats: ['CR #####', 'BT1-####/Q', 'VKBA ####'], weight: 2, country: 'Sweden' },
  { name: 'Dana Spicer', code: 'DANA', color: '#1D4289', groups: ['drivetrain', 'brakes'], formats: ['{21|12|23}####', '#-###X'], weight: 2, country: 'USA' },
  { name: 'ZF', code: 'ZF', color: '#00468C', groups: ['drivetrain', 'brakes'], formats: ['{4644|0501|0750|4472}######'], weight: 2, country: 'Germany' },
  { name: 'Allison', code: 'ALL', color: '#CF4520', groups: ['drivetrain', 'filters'], formats: ['29######'], exclude: ['oil-filters', 'fuel-filters', 'fuel-water-separators', 'hydraulic-filters', 'air-filters', 'cabin-air-filters', 'coolant-filters', 'breather-filters'], weight: 1, country: 'USA' },
  { name: 'Toyota Material Handling', code: 'TMH', color: '#CC0000', groups: LIFT, formats: ['#####-#####-71'], weight: 2, country: 'Japan',
    models: ['8FGU25 Forklift', '8FBE18 Forklift', '8FD30 Forklift', '7FGCU25 Forklift'] },
  { name: 'Linde MH', code: 'LIN', color: '#B9151B', groups: LIFT, formats: ['{000|390|115|738}#######'], weight: 2, country: 'Germany',
    models: ['H30D Forklift', 'E20 Electric Forklift', 'R16 Reach Truck', 'H50D Forklift'] },
  { name: 'Hyster', code: 'HYS', color: '#E87722', groups: LIFT, formats: ['{1|3}######', '{5800|5241|5200}#####'], numbering: 'hyster-yale', weight: 2, country: 'USA',
    models: ['H50FT Forklift', 'S2.5 Forklift', 'H16XM-12 Big Truck', 'J2.0XN Electric Forklift'] },
  { name: 'Yale', code: 'YALE', color: '#D52B1E', groups: LIFT, formats: ['{1|3}######', '{5800|5241|5200}#####'], numbering: 'hyster-yale', weight: 2, country: 'USA',
    models: ['GLP050VX Forklift', 'ERP030 Electric Forklift', 'GDP080VX Forklift', 'MPB045 Pallet Truck'] },
  { name: 'Jungheinrich', code: 'JUN', color: '#D8A200', groups: LIFT, formats: ['5{0|1}######'], weight: 2, country: 'Germany',
    models: ['ETV 216 Reach Truck', 'EFG 220 Electric Forklift', 'DFG 425 Forklift', 'EJE 116 Pallet Truck'] },
  { name: 'Sandvik', code: 'SAN', color: '#005F9E', groups: ['mining', 'get', 'hydraulics'], formats: ['BL00######', '442.####-01'], weight: 2, country: 'Sweden',
    models: ['DD422i Jumbo', 'LH517i Loader', 'QJ341 Jaw Crusher', 'CH440 Cone Crusher', 'DR412i Drill Rig'] },
  { name: 'Epiroc', code: 'EPI', color: '#34495E', groups: ['mining', 'hydraulics', 'filters'], formats: ['{3222|3115|3128|3176} #### ##'], weight: 2, country: 'Sweden',
    models: ['Boomer S2 Drill Rig', 'SmartROC D65 Drill Rig', 'Scooptram ST14 Loader', 'Pit Viper 271 Drill', 'Minetruck MT42'] },
  { name: 'Metso', code: 'MET', color: '#22313F', groups: ['mining', 'get'], formats: ['MM0######', 'N55######'], weight: 2, country: 'Finland',
    models: ['Nordberg HP300 Cone Crusher', 'Nordberg C130 Jaw Crusher', 'Lokotrack LT106', 'MP1000 Cone Crusher'] },
  { name: 'Atlas Copco', code: 'ATC', color: '#0099CC', groups: ['mining', 'filters', 'hydraulics', 'engine'], formats: ['{1613|1625|2901|1619} #### ##'], weight: 2, country: 'Sweden',
    models: ['XAS 185 Compressor', 'GA37 Compressor', 'ROC D7 Drill Rig', 'XATS 377 Compressor'] },
  { name: 'Bobcat', code: 'BOB', color: '#E2661B', groups: MACHINE, formats: ['{6|7}######'], weight: 2, country: 'USA',
    models: ['S650 Skid-Steer Loader', 'T770 Track Loader', 'E35 Mini Excavator', 'T590 Track Loader'] },
  { name: 'Terex', code: 'TER', color: '#1F5FA8', groups: MACHINE, formats: ['{15|09|12}######'], weight: 2, country: 'USA',
    models: ['TA300 Articulated Hauler', 'RT780 Rough Terrain Crane', 'TR100 Haul Truck', 'Finlay J-1175 Crusher'] },
  { name: 'Manitou', code: 'MAN', color: '#C8102E', groups: [...MACHINE.filter((g) => g !== 'undercarriage'), 'forklift'], formats: ['{17|22|56|70}####', '52######'], weight: 2, country: 'France',
    models: ['MT 1840 Telehandler', 'MLT 737 Telehandler', 'MRT 2150 Rotating Telehandler', 'M 50-4 Forklift'] },
  { name: 'Kohler', code: 'KOH', color: '#1F4E79', groups: POWER, formats: ['GM#####', '## ### ##-S'], exclude: NOT_ENGINE_FILTERS, weight: 2, country: 'USA',
    models: ['KD62V12 Generator', '20RESA Generator', '100REOZJF Generator', 'KDI 3404 Engine'] },
  { name: 'Generac', code: 'GEN', color: '#E4A11B', groups: POWER, formats: ['0{C|D|E|G|H|J}####{|A|S}'], exclude: NOT_ENGINE_FILTERS, weight: 2, country: 'USA',
    models: ['RG027 Generator', 'SD500 Generator', 'MDG75 Mobile Generator', 'Protector 48kW Generator'] },
  { name: 'Caterpillar Power', code: 'CATP', color: '#CF9200', groups: POWER, formats: ['#@-####', '###-####'], numbering: 'cat', exclude: NOT_ENGINE_FILTERS, weight: 2, country: 'USA',
    models: ['C32 Generator Set', '3516B Generator Set', 'C18 Generator Set', 'C9 Generator Set', 'G3520 Gas Generator'] },
  { name: 'Lister Petter', code: 'LIS', color: '#2E6B30', groups: POWER, formats: ['{201|351|751|757}-#####'], exclude: NOT_ENGINE_FILTERS, weight: 1, country: 'United Kingdom',
    models: ['LPW4 Engine', 'TR2 Engine', 'Alpha LPA3 Engine', 'TX3 Engine'] },
  { name: 'Garrett', code: 'GAR', color: '#3C3C3C', groups: ['turbo'], formats: ['{4|7|8}#####-####'], weight: 1, country: 'USA' },
  { name: 'Holset', code: 'HOL', color: '#B71C1C', groups: ['turbo'], formats: ['{35|40|28|36}#####'], weight: 1, country: 'United Kingdom' },
  { name: 'Bosch', code: 'BOS', color: '#E20015', groups: ['fuel', 'electrical'], formats: ['0 {445|432|986|414|281} ### ###'], weight: 2, country: 'Germany' },
  { name: 'Denso', code: 'DEN', color: '#DC0032', groups: ['fuel', 'electrical'], formats: ['09{5|7|0}###-####'], weight: 1, country: 'Japan' },
  { name: 'Delphi', code: 'DEL', color: '#1C3F94', groups: ['fuel', 'electrical'], formats: ['28######', 'EJBR0####@'], weight: 1, country: 'United Kingdom' },
  { name: 'Berco', code: 'BER', color: '#F2A900', groups: ['undercarriage'], formats: ['{CR|KM|VO|HI|JD|DO}####'], weight: 2, country: 'Italy' },
  { name: 'Generic', code: 'GNR', color: '#546E7A', groups: [...MACHINE, 'mining', 'forklift', 'power', 'agri'], formats: ['FLP-######'], weight: 6, country: 'Various' },
];

const c = (name: string, group: Group, shape: Shape, names: string[], kg: [number, number], pins: Pick<CategoryDef, 'specs' | 'named'> = {}): CategoryDef => ({ name, group, shape, names, kg, ...pins });
const ELEMENT = { 'Filter Type': ['Element'] };
const SEALS = ['Nitrile (NBR)', 'Viton (FKM)', 'Polyurethane'];
const TOOTH_SYSTEMS = ['J-Series', 'K-Series', 'Advansys', 'Hensley XS'];
const GET_STEELS = ['Through-Hardened Boron Steel', 'Alloy Steel', 'Manganese Steel'];

export const CATEGORIES: CategoryDef[] = [
  // filtration
  c('Oil Filters', 'filters', 'filter', ['Engine Oil Filter', 'Spin-On Lube Filter', 'Full-Flow Oil Filter', 'Bypass Oil Filter'], [0.4, 3],
    { named: { 'Spin-On Lube Filter': { 'Filter Type': ['Spin-On'] } } }),
  c('Fuel Filters', 'filters', 'filter', ['Fuel Filter', 'Primary Fuel Filter', 'Secondary Fuel Filter', 'Fuel Filter Element'], [0.3, 2],
    { named: { 'Fuel Filter Element': ELEMENT } }),
  c('Fuel Water Separators', 'filters', 'filter', ['Fuel Water Separator', 'Water Separator Element', 'Fuel/Water Separator Kit'], [0.5, 2.5],
    { named: { 'Water Separator Element': ELEMENT } }),
  c('Hydraulic Filters', 'filters', 'filter', ['Hydraulic Filter Element', 'Hydraulic Return Filter', 'Pilot Line Filter', 'Hydraulic Suction Strainer'], [0.3, 4],
    { named: { 'Hydraulic Filter Element': ELEMENT } }),
  c('Air Filters', 'filters', 'filter', ['Primary Air Filter', 'Safety Air Filter', 'Radial Seal Air Filter', 'Air Filter Element'], [0.8, 9],
    { specs: { 'Filter Type': ['Radial Seal', 'Element'] }, named: { 'Radial Seal Air Filter': { 'Filter Type': ['Radial Seal'] }, 'Air Filter Element': ELEMENT } }),
  c('Cabin Air Filters', 'filters', 'plate', ['Cab Air Filter', 'Cab Fresh Air Filter', 'Cab Recirculation Filter'], [0.1, 0.8],
    { specs: { Material: ['Pleated Paper', 'Activated Carbon'] } }),
  c('Coolant Filters', 'filters', 'filter', ['Coolant Filter', 'Water Filter with SCA'], [0.3, 1.5]),
  c('Transmission Filters', 'filters', 'filter', ['Transmission Filter', 'Transmission Oil Filter Kit'], [0.3, 2]),
  c('Breather Filters', 'filters', 'filter', ['Hydraulic Tank Breather', 'Crankcase Breather Filter'], [0.1, 0.6]),
  // engine
  c('Fuel Injectors', 'fuel', 'injector', ['Fuel Injector', 'Common Rail Injector', 'Unit Injector', 'Injector Nozzle'], [0.3, 2.5],
    { named: { 'Common Rail Injector': { 'Injection System': ['Common Rail'] }, 'Unit Injector': { 'Injection System': ['Unit Injector (HEUI)', 'Electronic Unit Injector'] } } }),
  c('Fuel Injection Pumps', 'fuel', 'pump', ['Fuel Injection Pump', 'High Pressure Fuel Pump', 'Fuel Transfer Pump'], [3, 18],
    { specs: { Displacement: ['0.6 cc/rev', '0.9 cc/rev', '1.2 cc/rev', '1.6 cc/rev', '2.2 cc/rev'], Shaft: ['Keyed 25 mm', 'Tapered Keyed', 'Gear Drive'] }, named: { 'Fuel Injection Pump': { 'Max Pressure': ['800 bar', '1000 bar', '1200 bar'] }, 'High Pressure Fuel Pump': { 'Max Pressure': ['1600 bar', '1800 bar', '2000 bar', '2500 bar'] }, 'Fuel Transfer Pump': { 'Max Pressure': ['5 bar', '8 bar', '10 bar'] } } }),
  c('Turbochargers', 'turbo', 'turbo', ['Turbocharger', 'Turbocharger Assembly', 'Wastegate Turbocharger', 'Turbo Cartridge (CHRA)'], [6, 35],
    { named: { 'Wastegate Turbocharger': { Wastegate: ['Internal'] }, 'Turbo Cartridge (CHRA)': { Wastegate: ['None'] } } }),
  c('Pistons', 'engine', 'piston', ['Piston', 'Piston Kit', 'Piston with Pin'], [1, 6],
    { specs: { Material: ['Aluminium Alloy', 'Forged Steel'] }, named: { Piston: { Includes: ['Single Part', 'Rings', 'Pin and Circlips'] }, 'Piston Kit': { Includes: ['Complete Kit'] }, 'Piston with Pin': { Includes: ['Pin and Circlips'] } } }),
  c('Piston Rings', 'engine', 'ring', ['Piston Ring Set', 'Compression Ring Set', 'Oil Control Ring'], [0.1, 0.6],
    { specs: { Material: ['Cast Iron', 'Forged Steel'], Includes: ['Rings'] }, named: { 'Oil Control Ring': { Includes: ['Single Part'] } } }),
  c('Cylinder Liners', 'engine', 'ring', ['Cylinder Liner', 'Cylinder Liner Kit', 'Cylinder Sleeve'], [2, 12],
    { specs: { Material: ['Cast Iron'], Includes: ['Single Part'] }, named: { 'Cylinder Liner Kit': { Includes: ['Complete Kit'] } } }),
  c('Cylinder Heads', 'engine', 'module', ['Cylinder Head', 'Cylinder Head Assembly', 'Bare Cylinder Head'], [18, 120],
    { named: { 'Cylinder Head Assembly': { Includes: ['Valves and Springs'] }, 'Bare Cylinder Head': { Includes: ['Bare (no valves)'] } } }),
  c('Gasket Kits', 'engine', 'gasket', ['Upper Gasket Kit', 'Lower Gasket Kit', 'Head Gasket', 'Overhaul Gasket Set'], [0.3, 4],
    { specs: { Pieces: Array.from({ length: 53 }, (_, k) => String(k + 8)) }, named: { 'Head Gasket': { Pieces: ['1'], Material: ['MLS Steel', 'Graphite', 'Fibre'] } } }),
  c('Crankshafts', 'engine', 'shaft', ['Crankshaft', 'Forged Crankshaft', 'Crankshaft Assembly'], [40, 320],
    { named: { 'Forged Crankshaft': { Material: ['Forged Alloy Steel'] } } }),
  c('Camshafts', 'engine', 'shaft', ['Camshaft', 'Camshaft Assembly'], [8, 45]),
  c('Connecting Rods', 'engine', 'piston', ['Connecting Rod', 'Connecting Rod Assembly'], [2, 9],
    { specs: { Material: ['Forged Steel'], Includes: ['Single Part', 'Bolts and Bearings'] }, named: { 'Connecting Rod Assembly': { Includes: ['Bolts and Bearings'] } } }),
  c('Engine Bearings', 'engine', 'bearing', ['Main Bearing Set', 'Connecting Rod Bearing Set', 'Thrust Washer Set'], [0.3, 3],
    { specs: { Cage: ['None (plain bearing)'], Clearance: ['STD', '0.25 mm undersize', '0.50 mm undersize'] } }),
  c('Oil Pumps', 'engine', 'pump', ['Engine Oil Pump', 'Lube Oil Pump Assembly'], [2, 14],
    { specs: { Displacement: ['20 cc/rev', '32 cc/rev', '45 cc/rev', '63 cc/rev'], 'Max Pressure': ['6 bar', '8 bar', '10 bar'], Shaft: ['Gear Drive', 'Keyed 25 mm'] } }),
  c('Starter Motors', 'electrical', 'motor', ['Starter Motor', '24V Starter Motor', 'Heavy Duty Starter'], [6, 20],
    { specs: { Output: ['4.0 kW', '5.5 kW', '7.8 kW', '9.0 kW'], 'Teeth / Pulley': ['10T', '11T', '12T'], Mounting: ['SAE 1 Flange', 'SAE 3 Flange'] }, named: { '24V Starter Motor': { Voltage: ['24 V'] }, 'Heavy Duty Starter': { Output: ['7.8 kW', '9.0 kW'] } } }),
  c('Alternators', 'electrical', 'motor', ['Alternator', '24V Alternator', 'Brushless Alternator'], [5, 15],
    { specs: { Output: ['70 A', '100 A', '140 A', '160 A'], 'Teeth / Pulley': ['Single Groove', 'Poly-V 8PK'], Mounting: ['Pad Mount', 'J-180 Hinge'] }, named: { '24V Alternator': { Voltage: ['24 V'] } } }),
  c('Engine Belts', 'engine', 'belt', ['Fan Belt', 'Serpentine Belt', 'Poly-V Belt', 'Alternator Belt'], [0.1, 1],
    { named: { 'Serpentine Belt': { Profile: ['6PK', '8PK', '10PK'] }, 'Poly-V Belt': { Profile: ['6PK', '8PK', '10PK'] } } }),
  // cooling
  c('Water Pumps', 'cooling', 'pump', ['Water Pump', 'Coolant Pump Assembly'], [3, 16],
    { specs: { 'Max Pressure': ['2 bar', '3 bar', '4 bar'], Shaft: ['Pulley Flange', 'Gear Drive'] } }),
  c('Radiators', 'cooling', 'radiator', ['Radiator', 'Radiator Core', 'Charge Air Cooler', 'Oil Cooler'], [12, 90],
    { named: { 'Charge Air Cooler': { 'Core Material': ['Aluminium', 'Aluminium Bar-and-Plate'] }, 'Oil Cooler': { 'Core Material': ['Aluminium Bar-and-Plate', 'Copper/Brass'] } } }),
  c('Thermostats', 'cooling', 'valve', ['Thermostat', 'Thermostat Kit', 'Thermostat Housing'], [0.2, 1.5],
    { specs: { Ports: ['2/2', '3/2'], Operation: ['Wax Element 71 °C', 'Wax Element 82 °C', 'Wax Element 88 °C'], 'Max Pressure': ['2 bar', '3 bar'] } }),
  // hydraulics
  c('Hydraulic Pumps', 'hydraulics', 'pump', ['Main Hydraulic Pump', 'Axial Piston Pump', 'Gear Pump', 'Pilot Pump'], [8, 140],
    { named: { 'Gear Pump': { 'Max Pressure': ['210 bar', '250 bar', '280 bar'] }, 'Pilot Pump': { 'Max Pressure': ['35 bar', '40 bar', '45 bar'] } } }),
  c('Hydraulic Motors', 'hydraulics', 'pump', ['Hydraulic Motor', 'Fan Drive Motor', 'Piston Motor'], [6, 80]),
  c('Swing Motors', 'hydraulics', 'gear', ['Swing Motor', 'Swing Motor Assembly', 'Swing Reduction Gearbox'], [60, 260]),
  c('Travel Motors', 'hydraulics', 'gear', ['Travel Motor', 'Travel Motor with Gearbox', 'Final Drive Travel Motor'], [80, 420]),
  c('Control Valves', 'hydraulics', 'valve', ['Main Control Valve', 'Pilot Control Valve', 'Relief Valve', 'Directional Control Valve'], [1, 180],
    { specs: { Operation: ['Hydraulic Pilot', 'Mechanical', 'Solenoid 24 V DC'] }, named: { 'Main Control Valve': { Ports: ['6 sections', '8 sections'], Operation: ['Hydraulic Pilot'] }, 'Pilot Control Valve': { Ports: ['4/3'], Operation: ['Mechanical'], 'Max Pressure': ['35 bar'] }, 'Relief Valve': { Ports: ['2/2'], Operation: ['Direct Acting', 'Pilot Operated'] }, 'Directional Control Valve': { Ports: ['4/3', '3/2'] } } }),
  c('Hydraulic Cylinders', 'hydraulics', 'ram', ['Boom Cylinder', 'Arm Cylinder', 'Bucket Cylinder', 'Steering Cylinder', 'Lift Cylinder'], [25, 420]),
  c('Cylinder Seal Kits', 'hydraulics', 'ring', ['Boom Cylinder Seal Kit', 'Arm Cylinder Seal Kit', 'Bucket Cylinder Seal Kit'], [0.2, 2],
    { specs: { Material: SEALS, Includes: ['Complete Kit'], Oversize: ['STD'] } }),
  c('Hydraulic Hoses', 'hydraulics', 'hose', ['Hydraulic Hose Assembly', 'High Pressure Hose', 'Return Line Hose'], [0.5, 12],
    { named: { 'High Pressure Hose': { 'Working Pressure': ['350 bar', '420 bar'], Standard: ['EN 856 4SH', 'EN 856 4SP', 'SAE 100R13'] }, 'Return Line Hose': { 'Working Pressure': ['17 bar', '21 bar', '35 bar'], Standard: ['SAE 100R4'] } } }),
  c('Hydraulic Fittings', 'hydraulics', 'fitting', ['Hydraulic Adapter', 'JIC Fitting', 'ORFS Elbow Fitting', 'Split Flange Kit'], [0.05, 1.5],
    { named: { 'JIC Fitting': { Connection: ['JIC 37°'] }, 'ORFS Elbow Fitting': { Connection: ['ORFS'] }, 'Split Flange Kit': { Connection: ['Code 61 Flange', 'Code 62 Flange'] } } }),
  // undercarriage and ground engaging tools
  c('Track Rollers', 'undercarriage', 'roller', ['Track Roller', 'Bottom Roller', 'Double Flange Track Roller', 'Single Flange Track Roller'], [25, 240],
    { named: { 'Double Flange Track Roller': { Flange: ['Double Flange'] }, 'Single Flange Track Roller': { Flange: ['Single Flange'] } } }),
  c('Carrier Rollers', 'undercarriage', 'roller', ['Carrier Roller', 'Top Roller'], [12, 90]),
  c('Idlers', 'undercarriage', 'wheel', ['Front Idler', 'Idler Assembly', 'Idler with Recoil Spring'], [80, 600],
    { specs: { Tread: ['Hardened Steel'], Hub: ['Bolt-On', 'Plain Bore'] } }),
  c('Sprockets', 'undercarriage', 'gear', ['Drive Sprocket', 'Sprocket Segment Set', 'Sprocket Rim'], [20, 300]),
  c('Track Chains', 'undercarriage', 'chain', ['Track Chain Assembly', 'Sealed & Lubricated Track Link', 'Master Link'], [400, 3000],
    { specs: { Type: ['Sealed and Lubricated', 'Sealed', 'Dry'] }, named: { 'Sealed & Lubricated Track Link': { Type: ['Sealed and Lubricated'] }, 'Master Link': { Links: ['1'] } } }),
  c('Track Shoes', 'undercarriage', 'plate', ['Track Shoe', 'Triple Grouser Shoe', 'Rubber Track Pad'], [8, 70],
    { specs: { Material: ['Heat-Treated Boron Steel', 'Manganese Steel 18%'] }, named: { 'Rubber Track Pad': { Material: ['Rubber'] } } }),
  c('Bucket Teeth', 'get', 'tooth', ['Bucket Tooth', 'Heavy Duty Rock Tooth', 'Penetration Tooth', 'Tiger Tooth'], [2, 45],
    { specs: { System: TOOTH_SYSTEMS, Material: GET_STEELS, Profile: ['Long', 'Heavy Duty', 'Penetration', 'Abrasion'] }, named: { 'Heavy Duty Rock Tooth': { Profile: ['Heavy Duty'] }, 'Penetration Tooth': { Profile: ['Penetration'] }, 'Tiger Tooth': { Profile: ['Penetration'] } } }),
  c('Tooth Adapters', 'get', 'tooth', ['Tooth Adapter', 'Weld-On Adapter', 'Pin and Retainer Kit'], [3, 60],
    { specs: { System: TOOTH_SYSTEMS, Material: GET_STEELS, Profile: ['Heavy Duty', 'Long'] } }),
  c('Cutting Edges', 'get', 'edge', ['Cutting Edge', 'Double Bevel Cutting Edge', 'Grader Blade'], [15, 180],
    { specs: { System: ['Bolt-On'], Material: GET_STEELS, Profile: ['Flat', 'Curved', 'Serrated'] }, named: { 'Double Bevel Cutting Edge': { Profile: ['Double Bevel'] } } }),
  c('End Bits', 'get', 'edge', ['End Bit', 'Left Hand End Bit', 'Right Hand End Bit'], [10, 90],
    { specs: { System: ['Bolt-On'], Material: GET_STEELS, Profile: ['Heavy Duty', 'Flat'] } }),
  c('Ripper Shanks', 'get', 'tooth', ['Ripper Shank', 'Ripper Tip', 'Ripper Shank Protector'], [30, 400],
    { specs: { System: ['Pin-On', 'J-Series', 'K-Series'], Material: GET_STEELS, Profile: ['Heavy Duty', 'Penetration', 'Long'] } }),
  // drivetrain
  c('Transmission Parts', 'drivetrain', 'gear', ['Transmission Gear', 'Transmission Control Valve', 'Transmission Shaft', 'Clutch Pack'], [1, 80]),
  c('Final Drives', 'drivetrain', 'gear', ['Final Drive', 'Final Drive Planetary Carrier', 'Final Drive Seal Group'], [40, 900]),
  c('Axle Parts', 'drivetrain', 'shaft', ['Axle Shaft', 'Planetary Hub Assembly', 'Axle Housing Seal Kit'], [3, 120],
    { named: { 'Axle Housing Seal Kit': { Material: ['Nitrile (NBR)', 'Viton (FKM)'] } } }),
  c('Differential Parts', 'drivetrain', 'gear', ['Crown Wheel and Pinion', 'Differential Spider Gear Kit', 'Limited Slip Differential'], [4, 90]),
  c('Drive Shafts', 'drivetrain', 'shaft', ['Drive Shaft', 'Propeller Shaft', 'Slip Yoke Assembly'], [8, 60]),
  c('Universal Joints', 'drivetrain', 'fitting', ['Universal Joint', 'U-Joint Kit', 'Cross and Bearing Kit'], [0.5, 6]),
  c('Clutch Plates', 'drivetrain', 'disc', ['Friction Disc', 'Clutch Plate', 'Separator Plate'], [0.3, 4],
    { named: { 'Separator Plate': { 'Friction Material': ['None (steel plate)'] } } }),
  c('Torque Converters', 'drivetrain', 'disc', ['Torque Converter', 'Remanufactured Torque Converter'], [25, 110],
    { named: { 'Remanufactured Torque Converter': { Condition: ['Remanufactured'] } } }),
  // bearings and seals
  c('Roller Bearings', 'bearings', 'bearing', ['Tapered Roller Bearing', 'Spherical Roller Bearing', 'Cylindrical Roller Bearing', 'Bearing Cup and Cone Set'], [0.2, 25]),
  c('Ball Bearings', 'bearings', 'bearing', ['Deep Groove Ball Bearing', 'Angular Contact Ball Bearing', 'Sealed Ball Bearing'], [0.05, 6]),
  c('Oil Seals', 'bearings', 'ring', ['Radial Shaft Seal', 'Duo-Cone Floating Seal', 'Wheel Hub Seal', 'Crankshaft Seal'], [0.05, 3],
    { specs: { Material: SEALS, Includes: ['Single Part'], Oversize: ['STD'] }, named: { 'Duo-Cone Floating Seal': { Material: ['Cast Iron'] } } }),
  c('O-Ring Kits', 'bearings', 'ring', ['O-Ring Kit', 'Metric O-Ring Assortment', 'Viton O-Ring Set'], [0.1, 1.2],
    { specs: { Material: ['Nitrile (NBR)', 'Viton (FKM)'], Includes: ['Complete Kit'], Oversize: ['STD'] }, named: { 'Viton O-Ring Set': { Material: ['Viton (FKM)'] } } }),
  // electrical
  c('Sensors', 'electrical', 'sensor', ['Pressure Sensor', 'Speed Sensor', 'Temperature Sensor', 'Oil Pressure Switch', 'Position Sensor'], [0.05, 0.5],
    { named: { 'Pressure Sensor': { Signal: ['0.5-4.5 V analogue', 'CAN J1939', 'PWM'] }, 'Speed Sensor': { Signal: ['Hall effect', 'Inductive'] }, 'Temperature Sensor': { Signal: ['Resistive NTC', '0.5-4.5 V analogue'] }, 'Oil Pressure Switch': { Signal: ['Switch (normally closed)', 'Switch (normally open)'] }, 'Position Sensor': { Signal: ['Hall effect', 'PWM', '0.5-4.5 V analogue'] } } }),
  c('Solenoid Valves', 'electrical', 'valve', ['Solenoid Valve', 'Proportional Solenoid', 'Fuel Shut-Off Solenoid'], [0.2, 3],
    { specs: { Operation: ['Solenoid 12 V DC', 'Solenoid 24 V DC'], Ports: ['2/2', '3/2', '4/3'] } }),
  c('Control Modules', 'electrical', 'module', ['Engine Control Module', 'Machine Controller', 'Monitor Display Panel'], [0.8, 5]),
  c('Wiring Harnesses', 'electrical', 'hose', ['Main Wiring Harness', 'Engine Wiring Harness', 'Cab Harness'], [1, 15]),
  c('Work Lights', 'cab', 'light', ['LED Work Light', 'Halogen Work Lamp', 'LED Beacon'], [0.4, 3],
    { named: { 'Halogen Work Lamp': { Output: ['1000 lm', '1200 lm', '1500 lm'] } } }),
  c('Operator Seats', 'cab', 'module', ['Operator Seat', 'Air Suspension Seat', 'Seat Suspension Kit'], [18, 45],
    { named: { 'Air Suspension Seat': { Suspension: ['Air'] } } }),
  // brakes
  c('Brake Pads', 'brakes', 'plate', ['Brake Pad Set', 'Parking Brake Pad', 'Brake Shoe Kit'], [1, 9],
    { specs: { Material: ['Organic Friction Compound', 'Sintered Bronze', 'Ceramic'] } }),
  c('Brake Discs', 'brakes', 'disc', ['Brake Disc', 'Wet Brake Friction Disc', 'Brake Rotor'], [2, 30],
    { named: { 'Brake Rotor': { 'Friction Material': ['None (cast iron rotor)'] } } }),
  // mining
  c('Drill Bits', 'mining', 'bit', ['Button Bit', 'Retrac Button Bit', 'DTH Hammer Bit', 'Tricone Rock Bit'], [1, 60],
    { specs: { System: ['R32 Thread', 'T38 Thread', 'T45 Thread', 'GT60 Thread'], Material: ['Tungsten Carbide Buttons'], Profile: ['Flat Front', 'Drop Centre', 'Heavy Duty'] }, named: { 'DTH Hammer Bit': { System: ['DTH QL60 Shank', 'DTH DHD340 Shank'] }, 'Tricone Rock Bit': { System: ['API 3-1/2" Reg Pin', 'API 4-1/2" Reg Pin'], Material: ['Tungsten Carbide Inserts', 'Milled Steel Teeth'] } } }),
  c('Drill Rods', 'mining', 'shaft', ['Drill Rod', 'Extension Rod', 'Drill Steel', 'Shank Adapter'], [5, 90]),
  c('Rock Drill Parts', 'mining', 'piston', ['Rock Drill Piston', 'Rock Drill Seal Kit', 'Front Head', 'Rotation Chuck'], [1, 40],
    { specs: { Material: ['Forged Steel'], Includes: ['Single Part'], Oversize: ['STD'] }, named: { 'Rock Drill Seal Kit': { Material: SEALS, Includes: ['Complete Kit'] } } }),
  c('Crusher Liners', 'mining', 'plate', ['Jaw Plate', 'Concave Liner', 'Mantle', 'Bowl Liner'], [200, 4000],
    { specs: { Material: ['Manganese Steel 18%', 'Hardox 450'] } }),
  c('Screen Media', 'mining', 'plate', ['Polyurethane Screen Panel', 'Woven Wire Screen', 'Rubber Screen Panel'], [5, 80],
    { named: { 'Polyurethane Screen Panel': { Material: ['Polyurethane'] }, 'Woven Wire Screen': { Material: ['High-Tensile Steel Wire'] }, 'Rubber Screen Panel': { Material: ['Rubber'] } } }),
  // material handling
  c('Forklift Forks', 'forklift', 'fork', ['Forklift Fork', 'Class II Fork Pair', 'Fork Extension'], [30, 180],
    { named: { 'Class II Fork Pair': { Class: ['ISO II'] } } }),
  c('Mast Chains', 'forklift', 'chain', ['Mast Lift Chain', 'Leaf Chain', 'Chain Anchor Bolt'], [2, 40],
    { specs: { Type: ['Leaf Chain BL646', 'Leaf Chain LH1244'] } }),
  c('Load Wheels', 'forklift', 'wheel', ['Load Wheel', 'Polyurethane Drive Wheel', 'Steer Wheel'], [1, 25],
    { named: { 'Polyurethane Drive Wheel': { Tread: ['Polyurethane'] } } }),
  c('Forklift Tyres', 'forklift', 'wheel', ['Solid Forklift Tyre', 'Press-On Tyre', 'Non-Marking Tyre'], [10, 60],
    { specs: { Tread: ['Solid Rubber', 'Non-Marking Rubber', 'Polyurethane'] }, named: { 'Solid Forklift Tyre': { Tread: ['Solid Rubber'] }, 'Non-Marking Tyre': { Tread: ['Non-Marking Rubber'] } } }),
  // power generation
  c('Voltage Regulators', 'power', 'module', ['Automatic Voltage Regulator (AVR)', 'Digital AVR Board'], [0.3, 2],
    { specs: { Interface: ['Analogue', 'Modbus RTU', 'CAN J1939'] } }),
  c('Generator Controllers', 'power', 'module', ['Genset Controller', 'Auto Start Control Panel', 'Paralleling Controller'], [0.8, 6]),
  c('Governor Actuators', 'power', 'valve', ['Governor Actuator', 'Electronic Speed Controller', 'Actuator Linkage Kit'], [0.5, 5],
    { specs: { Operation: ['Solenoid 12 V DC', 'Solenoid 24 V DC', 'Electronic (PWM)'] } }),
  c('Generator Alternator Parts', 'power', 'motor', ['Rotating Rectifier Kit', 'Exciter Rotor', 'Stator Assembly'], [0.3, 250]),
  // agriculture
  c('PTO Shafts', 'agri', 'shaft', ['PTO Shaft', 'PTO Driveline', 'PTO Shear Bolt Kit'], [4, 40],
    { specs: { Splines: ['6', '20', '21'] } }),
  c('Mower Blades', 'agri', 'edge', ['Mower Blade', 'Disc Mower Knife', 'Sickle Section Kit'], [0.1, 4],
    { specs: { System: ['Bolt-On', 'Quick-Change Clip'], Material: ['Through-Hardened Boron Steel', 'Alloy Steel'], Profile: ['Straight', 'Twisted', 'Serrated'] } }),
  c('Harvester Parts', 'agri', 'chain', ['Feeder House Chain', 'Rasp Bar Set', 'Concave Section', 'Sieve Assembly'], [3, 120]),
  c('Baler Parts', 'agri', 'gear', ['Knotter Assembly', 'Pickup Tine Set', 'Plunger Bearing'], [0.2, 40]),
];
