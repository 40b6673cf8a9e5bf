/** Word lists for the synthetic customer table. Changing any list changes every generated table: bump the generator version. */

export const FIRST_NAMES = [
  'James', 'Mary', 'Robert', 'Patricia', 'John', 'Jennifer', 'Michael', 'Linda', 'David', 'Elizabeth',
  'William', 'Barbara', 'Richard', 'Susan', 'Joseph', 'Jessica', 'Thomas', 'Sarah', 'Charles', 'Karen',
  'Daniel', 'Nancy', 'Matthew', 'Lisa', 'Anthony', 'Margaret', 'Mark', 'Sandra', 'Steven', 'Ashley',
  'Andrew', 'Emily', 'Joshua', 'Michelle', 'Kevin', 'Amanda', 'Brian', 'Melissa', 'George', 'Rebecca',
  'Carlos', 'Sofia', 'Wei', 'Priya', 'Ahmed', 'Fatima', 'Hiroshi', 'Ingrid', 'Mateo', 'Olga',
] as const

export const LAST_NAMES = [
  'Smith', 'Johnson', 'Williams', 'Brown', 'Jones', 'Garcia', 'Miller', 'Davis', 'Rodriguez', 'Martinez',
  'Hernandez', 'Lopez', 'Gonzalez', 'Wilson', 'Anderson', 'Thomas', 'Taylor', 'Moore', 'Jackson', 'Martin',
  'Lee', 'Perez', 'Thompson', 'White', 'Harris', 'Sanchez', 'Clark', 'Ramirez', 'Lewis', 'Robinson',
  'Walker', 'Young', 'Allen', 'King', 'Wright', 'Scott', 'Torres', 'Nguyen', 'Hill', 'Flores',
  'Green', 'Adams', 'Nelson', 'Baker', 'Hall', 'Rivera', 'Campbell', 'Mitchell', 'Carter', 'Roberts',
] as const

export const EMAIL_DOMAINS = ['gmail.com', 'yahoo.com', 'outlook.com', 'icloud.com', 'proton.me', 'aol.com'] as const

/** Each zip belongs to one city and each city to one state: zip → city → state, city → area code. */
export interface Location {
  city: string
  state: string
  stateName: string
  areaCode: string
  zips: readonly string[]
}

export const LOCATIONS: readonly Location[] = [
  { city: 'New York', state: 'NY', stateName: 'New York', areaCode: '212', zips: ['10001', '10002', '10003', '10011'] },
  { city: 'Buffalo', state: 'NY', stateName: 'New York', areaCode: '716', zips: ['14201', '14202'] },
  { city: 'Boston', state: 'MA', stateName: 'Massachusetts', areaCode: '617', zips: ['02108', '02109', '02116'] },
  { city: 'Cambridge', state: 'MA', stateName: 'Massachusetts', areaCode: '617', zips: ['02138', '02139'] },
  { city: 'Hartford', state: 'CT', stateName: 'Connecticut', areaCode: '860', zips: ['06103', '06105'] },
  { city: 'Newark', state: 'NJ', stateName: 'New Jersey', areaCode: '973', zips: ['07102', '07103'] },
  { city: 'Philadelphia', state: 'PA', stateName: 'Pennsylvania', areaCode: '215', zips: ['19103', '19104', '19107'] },
  { city: 'Pittsburgh', state: 'PA', stateName: 'Pennsylvania', areaCode: '412', zips: ['15213', '15222'] },
  { city: 'Baltimore', state: 'MD', stateName: 'Maryland', areaCode: '410', zips: ['21201', '21202'] },
  { city: 'Washington', state: 'DC', stateName: 'District of Columbia', areaCode: '202', zips: ['20001', '20002', '20005'] },
  { city: 'Charlotte', state: 'NC', stateName: 'North Carolina', areaCode: '704', zips: ['28202', '28203'] },
  { city: 'Atlanta', state: 'GA', stateName: 'Georgia', areaCode: '404', zips: ['30303', '30308', '30309'] },
  { city: 'Miami', state: 'FL', stateName: 'Florida', areaCode: '305', zips: ['33101', '33130', '33131'] },
  { city: 'Orlando', state: 'FL', stateName: 'Florida', areaCode: '407', zips: ['32801', '32803'] },
  { city: 'Nashville', state: 'TN', stateName: 'Tennessee', areaCode: '615', zips: ['37201', '37203'] },
  { city: 'New Orleans', state: 'LA', stateName: 'Louisiana', areaCode: '504', zips: ['70112', '70116'] },
  { city: 'Detroit', state: 'MI', stateName: 'Michigan', areaCode: '313', zips: ['48201', '48226'] },
  { city: 'Columbus', state: 'OH', stateName: 'Ohio', areaCode: '614', zips: ['43215', '43201'] },
  { city: 'Cleveland', state: 'OH', stateName: 'Ohio', areaCode: '216', zips: ['44113', '44114'] },
  { city: 'Indianapolis', state: 'IN', stateName: 'Indiana', areaCode: '317', zips: ['46204', '46225'] },
  { city: 'Chicago', state: 'IL', stateName: 'Illinois', areaCode: '312', zips: ['60601', '60602', '60605', '60611'] },
  { city: 'Milwaukee', state: 'WI', stateName: 'Wisconsin', areaCode: '414', zips: ['53202', '53203'] },
  { city: 'Minneapolis', state: 'MN', stateName: 'Minnesota', areaCode: '612', zips: ['55401', '55403'] },
  { city: 'St. Louis', state: 'MO', stateName: 'Missouri', areaCode: '314', zips: ['63101', '63103'] },
  { city: 'Kansas City', state: 'MO', stateName: 'Missouri', areaCode: '816', zips: ['64105', '64106'] },
  { city: 'Dallas', state: 'TX', stateName: 'Texas', areaCode: '214', zips: ['75201', '75202', '75204'] },
  { city: 'Houston', state: 'TX', stateName: 'Texas', areaCode: '713', zips: ['77002', '77003', '77006'] },
  { city: 'Austin', state: 'TX', stateName: 'Texas', areaCode: '512', zips: ['78701', '78702'] },
  { city: 'Denver', state: 'CO', stateName: 'Colorado', areaCode: '303', zips: ['80202', '80203', '80205'] },
  { city: 'Salt Lake City', state: 'UT', stateName: 'Utah', areaCode: '801', zips: ['84101', '84111'] },
  { city: 'Phoenix', state: 'AZ', stateName: 'Arizona', areaCode: '602', zips: ['85003', '85004'] },
  { city: 'Las Vegas', state: 'NV', stateName: 'Nevada', areaCode: '702', zips: ['89101', '89102'] },
  { city: 'Los Angeles', state: 'CA', stateName: 'California', areaCode: '213', zips: ['90012', '90013', '90014', '90017'] },
  { city: 'San Diego', state: 'CA', stateName: 'California', areaCode: '619', zips: ['92101', '92103'] },
  { city: 'San Francisco', state: 'CA', stateName: 'California', areaCode: '415', zips: ['94102', '94103', '94110'] },
  { city: 'Portland', state: 'OR', stateName: 'Oregon', areaCode: '503', zips: ['97201', '97205'] },
  { city: 'Seattle', state: 'WA', stateName: 'Washington', areaCode: '206', zips: ['98101', '98104', '98109'] },
  { city: 'Anchorage', state: 'AK', stateName: 'Alaska', areaCode: '907', zips: ['99501', '99503'] },
]

/** Plan determines the monthly fee (a functional dependency a repairer can use). */
export interface Plan {
  name: string
  fee: string
  /** Share of customers on this plan. */
  weight: number
}

export const PLANS: readonly Plan[] = [
  { name: 'Basic', fee: '9.99', weight: 0.4 },
  { name: 'Standard', fee: '19.99', weight: 0.3 },
  { name: 'Premium', fee: '49.99', weight: 0.2 },
  { name: 'Enterprise', fee: '199.00', weight: 0.1 },
]

export const MONTH_ABBREVIATIONS = [
  'Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec',
] as const
