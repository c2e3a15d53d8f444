/** GET /api/account/fleet.csv: the fleet as unit_name,make,model,serial,hours (the columns an import reads), downloaded by a plain link. */
export const FLEET_CSV_URL = '/api/account/fleet.csv';
