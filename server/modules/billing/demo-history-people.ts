import type { Lang } from '#shared/locales.ts';

// Who the demo history's customers are: where they live (weighted roughly as a consumer VPN's
// buyers are), what they are called there, which language they read and which currency the
// demo catalog sells them in.

export interface Region {
  /** Countries with their share of sign-ups (any scale). */
  countries: readonly [code: string, weight: number][];
  lang: Lang;
  first: readonly string[];
  last: readonly string[];
}

const ANGLO: Omit<Region, 'countries'> = {
  lang: 'en',
  first: [
    'James',
    'Olivia',
    'Liam',
    'Emma',
    'Noah',
    'Ava',
    'Ethan',
    'Chloe',
    'Mason',
    'Grace',
    'Jack',
    'Amelia',
    'Ryan',
    'Harper',
    'Daniel',
    'Sophie',
    'Henry',
    'Lily',
    'Owen',
    'Zoe',
  ],
  last: [
    'Smith',
    'Johnson',
    'Brown',
    'Taylor',
    'Wilson',
    'Davies',
    'Evans',
    'Walker',
    'Wright',
    'Clarke',
    'Hughes',
    'Miller',
    'Moore',
    'Anderson',
    'Campbell',
    "O'Brien",
  ],
};

export const REGIONS: readonly Region[] = [
  {
    ...ANGLO,
    countries: [
      ['US', 190],
      ['GB', 80],
      ['CA', 40],
      ['AU', 28],
      ['IE', 8],
    ],
  },
  {
    countries: [
      ['DE', 105],
      ['AT', 12],
      ['CH', 12],
    ],
    lang: 'en',
    first: ['Lukas', 'Lena', 'Finn', 'Mia', 'Jonas', 'Hannah', 'Felix', 'Lea', 'Paul', 'Emilia'],
    last: ['Müller', 'Schmidt', 'Schneider', 'Fischer', 'Weber', 'Meyer', 'Wagner', 'Becker'],
  },
  {
    countries: [
      ['NL', 60],
      ['BE', 16],
    ],
    lang: 'nl',
    first: ['Daan', 'Sanne', 'Bram', 'Fleur', 'Sem', 'Lotte', 'Thijs', 'Noor', 'Jesse', 'Eva'],
    last: ['de Jong', 'Jansen', 'de Vries', 'van Dijk', 'Bakker', 'Visser', 'Smit', 'Mulder'],
  },
  {
    countries: [['FR', 62]],
    lang: 'fr',
    first: ['Louis', 'Camille', 'Hugo', 'Léa', 'Jules', 'Chloé', 'Arthur', 'Manon', 'Inès'],
    last: ['Martin', 'Bernard', 'Dubois', 'Thomas', 'Robert', 'Petit', 'Durand', 'Moreau'],
  },
  {
    countries: [
      ['ES', 50],
      ['MX', 22],
      ['AR', 12],
      ['CO', 8],
    ],
    lang: 'es',
    first: ['Alejandro', 'Lucía', 'Pablo', 'Sofía', 'Diego', 'Martina', 'Javier', 'Carmen'],
    last: ['García', 'Rodríguez', 'González', 'Fernández', 'López', 'Martínez', 'Sánchez'],
  },
  {
    countries: [
      ['RU', 70],
      ['KZ', 10],
      ['BY', 6],
    ],
    lang: 'ru',
    first: ['Alexei', 'Anastasia', 'Dmitri', 'Maria', 'Ivan', 'Ekaterina', 'Sergei', 'Olga'],
    last: ['Ivanov', 'Smirnov', 'Kuznetsov', 'Popov', 'Volkov', 'Sokolov', 'Lebedev', 'Kozlov'],
  },
  {
    countries: [
      ['BR', 50],
      ['PT', 10],
    ],
    lang: 'en',
    first: ['João', 'Ana', 'Pedro', 'Beatriz', 'Lucas', 'Juliana', 'Rafael', 'Mariana'],
    last: ['Silva', 'Santos', 'Oliveira', 'Souza', 'Lima', 'Pereira', 'Costa', 'Ferreira'],
  },
  {
    countries: [['IN', 48]],
    lang: 'en',
    first: ['Arjun', 'Priya', 'Rahul', 'Ananya', 'Vikram', 'Sneha', 'Rohan', 'Kavya', 'Isha'],
    last: ['Sharma', 'Patel', 'Singh', 'Kumar', 'Gupta', 'Reddy', 'Iyer', 'Nair', 'Mehta'],
  },
  {
    countries: [['IT', 36]],
    lang: 'en',
    first: ['Marco', 'Giulia', 'Luca', 'Chiara', 'Matteo', 'Francesca', 'Andrea', 'Sara'],
    last: ['Rossi', 'Russo', 'Ferrari', 'Esposito', 'Bianchi', 'Romano', 'Colombo', 'Ricci'],
  },
  {
    countries: [
      ['PL', 26],
      ['SE', 16],
      ['FI', 6],
    ],
    lang: 'en',
    first: ['Jakub', 'Zuzanna', 'Erik', 'Astrid', 'Oskar', 'Elsa', 'Julia', 'Axel'],
    last: ['Nowak', 'Kowalski', 'Wiśniewski', 'Andersson', 'Johansson', 'Nilsson', 'Virtanen'],
  },
  {
    countries: [
      ['TR', 18],
      ['JP', 16],
    ],
    lang: 'en',
    first: ['Mehmet', 'Elif', 'Emre', 'Zeynep', 'Haruto', 'Yui', 'Sota', 'Hina'],
    last: ['Yılmaz', 'Kaya', 'Demir', 'Şahin', 'Sato', 'Suzuki', 'Tanaka', 'Watanabe'],
  },
];

/** Where the demo catalog sells in euros; Russia and its neighbours pay cards in roubles. */
const EURO = new Set(['DE', 'AT', 'NL', 'BE', 'FR', 'ES', 'IE', 'IT', 'PT', 'FI']);
const ROUBLE = new Set(['RU', 'KZ', 'BY']);

/** The currency a customer of that country buys in on a service selling `offered`. */
export function currencyFor(country: string, offered: readonly string[]): string {
  const wanted = ROUBLE.has(country) ? 'RUB' : EURO.has(country) ? 'EUR' : 'USD';
  if (offered.includes(wanted)) return wanted;
  // PayPal and crypto sell no roubles: a Russian buyer there pays in euros.
  if (wanted === 'RUB' && offered.includes('EUR')) return 'EUR';
  return offered.includes('USD') ? 'USD' : (offered[0] ?? 'USD');
}

const LETTERS: Record<string, string> = { ł: 'l', ı: 'i', ß: 'ss', ø: 'o', "'": '' };

/** `Wiśniewski` → `wisniewski`: e-mail addresses and usernames are plain ASCII. */
export function asciiHandle(text: string): string {
  return text
    .toLowerCase()
    .replace(/[łıßø']/g, (letter) => LETTERS[letter] ?? '')
    .normalize('NFD')
    .replace(/[^a-z]/g, '');
}
