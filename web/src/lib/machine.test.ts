import { describe, expect, it } from 'vitest';
import { machineLabel, machineParams, parseMachine, sameMachine, serializeMachine, toMachine, unitsFitting, type Fleet } from './machine.ts';

describe('the chosen machine', () => {
  it('round-trips through its stored form', () => {
    for (const m of [{ make: 'Caterpillar' }, { make: 'Caterpillar', model: '320D Excavator' }, { make: 'Komatsu', model: 'PC200-8', serial: 'ABC01500' }]) {
      expect(parseMachine(serializeMachine(m))).toEqual(m);
    }
    expect(serializeMachine(null)).toBeNull();
  });

  it('reads nothing from a missing, broken or foreign stored value', () => {
    for (const raw of [null, undefined, '', 'not json', '[]', '"Caterpillar"', '{"model":"320D"}', '{"make":"   "}', '{"make":42}']) {
      expect(parseMachine(raw), String(raw)).toBeNull();
    }
  });

  it('trims what the buyer typed, drops blanks and keeps a serial only with a model', () => {
    expect(toMachine({ make: ' Caterpillar ', model: '  ', serial: 'RJS1' })).toEqual({ make: 'Caterpillar' });
    expect(toMachine({ make: 'Caterpillar', model: ' D9T   Dozer ', serial: ' RJS01000 ' })).toEqual({ make: 'Caterpillar', model: 'D9T Dozer', serial: 'RJS01000' });
    expect(toMachine({ make: '', model: 'D9T' })).toBeNull();
    expect(toMachine({ make: 'Caterpillar', model: 'D9T', serial: 'X'.repeat(41) })).toEqual({ make: 'Caterpillar', model: 'D9T' });
  });

  it('becomes the make, model and serial query parameters, and none without a machine', () => {
    expect(machineParams(null)).toEqual({});
    expect(machineParams({ make: 'Caterpillar' })).toEqual({ make: 'Caterpillar' });
    expect(machineParams({ make: 'Caterpillar', model: '320D', serial: 'S1' })).toEqual({ make: 'Caterpillar', model: '320D', serial: 'S1' });
  });

  it('is named as the chip shows it', () => {
    expect(machineLabel({ make: 'Caterpillar', model: '320D Excavator' })).toBe('Caterpillar 320D Excavator');
    expect(machineLabel({ make: 'Caterpillar', model: '320D Excavator', serial: 'RJS01000' })).toBe('Caterpillar 320D Excavator · S/N RJS01000');
    expect(machineLabel({ make: 'Komatsu' })).toBe('Komatsu (all models)');
  });

  it('compares machines as the catalogue narrows by them', () => {
    expect(sameMachine({ make: 'Cat', model: 'D9T' }, { make: ' Cat', model: 'D9T ' })).toBe(true);
    expect(sameMachine({ make: 'Cat', model: 'D9T' }, { make: 'Cat' })).toBe(false);
    expect(sameMachine(null, undefined)).toBe(true);
  });
});

describe("a buyer's fleet as the filter (issue 35)", () => {
  const fleet: Fleet = {
    fleet: [
      { make: 'Caterpillar', model: '777G', serial: 'LAJ00123', unit: 'Haul truck 07' },
      { make: 'Volvo', model: 'L120H, mk2', unit: 'Loader 2' },
    ],
  };
  it('sends every unit as make~model~serial, make and model as slugs (no separators, and short)', () => {
    expect(machineParams(fleet)).toEqual({ machines: 'caterpillar~777g~LAJ00123,volvo~l120h-mk2' });
  });
  it('round-trips, drops units without a model or a name, and names the units a part fits', () => {
    expect(parseMachine(serializeMachine(fleet))).toEqual(fleet);
    expect(parseMachine(JSON.stringify({ fleet: [{ make: 'Cat', unit: 'x' }, { make: 'Cat', model: 'D9T' }] }))).toBeNull();
    expect(machineLabel(fleet)).toBe('My machines (2)');
    expect(unitsFitting(fleet, [1, 0, 7])).toEqual(['Loader 2', 'Haul truck 07']);
    expect(unitsFitting({ make: 'Cat' }, [0])).toEqual([]);
  });
  it('names one unit chosen from the fleet by its own name', () => {
    expect(machineLabel({ make: 'Caterpillar', model: '777G', unit: 'Haul truck 07' })).toBe('Haul truck 07 — Caterpillar 777G');
  });
});
