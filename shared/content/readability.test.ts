import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  countSyllables,
  READABILITY_BANDS,
  type ReadabilityLang,
  readability,
  readabilityBand,
  sentencesOf,
  wordsOf,
} from './readability.ts';

// Syllables as a dictionary splits the word, for words the spelling rules have to get right.
const SYLLABLES: Record<ReadabilityLang, [string, number][]> = {
  en: [
    ['the', 1],
    ['make', 1],
    ['makes', 1],
    ['table', 2],
    ['tables', 2],
    ['little', 2],
    ['whole', 1],
    ['jumped', 1],
    ['played', 1],
    ['wanted', 2],
    ['settled', 2],
    ['called', 1],
    ['boxes', 2],
    ['places', 2],
    ['clothes', 1],
    ['lovely', 2],
    ['movement', 2],
    ['element', 3],
    ['radio', 3],
    ['actual', 3],
    ['being', 2],
    ['client', 2],
    ['science', 2],
    ['quiet', 2],
    ['idea', 3],
    ['created', 3],
    ['beautiful', 3],
    ['unique', 2],
    ['continue', 3],
    ['people', 2],
    ['something', 2],
    ['every', 3],
    ['privacy', 3],
    ['security', 4],
    ['encryption', 3],
    ['connection', 3],
    ['anonymous', 4],
    ['information', 4],
    ['experience', 4],
    ['readability', 5],
    ['university', 5],
    ['organization', 5],
    ['don’t', 1],
    ['well-known', 2],
    ['café', 2],
  ],
  es: [
    ['casa', 2],
    ['ciudad', 2],
    ['aire', 2],
    ['país', 2],
    ['río', 2],
    ['poeta', 3],
    ['teatro', 3],
    ['leer', 2],
    ['queso', 2],
    ['guitarra', 3],
    ['pingüino', 3],
    ['hoy', 1],
    ['Uruguay', 3],
    ['ahora', 3],
    ['murciélago', 4],
    ['biología', 4],
    ['privacidad', 4],
    ['conexión', 3],
    ['aéreo', 4],
    ['y', 1],
  ],
  fr: [
    ['maison', 2],
    ['eau', 1],
    ['oiseau', 2],
    ['homme', 1],
    ['pommes', 1],
    ['parlent', 1],
    ['moment', 2],
    ['langue', 1],
    ['musique', 2],
    ['vie', 1],
    ['amie', 2],
    ['année', 2],
    ['naïf', 2],
    ['Noël', 2],
    ['poésie', 3],
    ['réalité', 4],
    ['client', 2],
    ['beaucoup', 2],
    ['sécurité', 4],
    ['navigation', 4],
    ['confidentialité', 6],
    ["aujourd'hui", 3],
  ],
  nl: [
    ['dag', 1],
    ['huis', 1],
    ['mooi', 1],
    ['leeuw', 1],
    ['nieuw', 1],
    ['één', 1],
    ['moeilijk', 2],
    ['koeien', 2],
    ['zeeën', 2],
    ['bioscoop', 3],
    ['vriendelijk', 3],
    ['politie', 3],
    ['Nederland', 3],
    ['ideeën', 3],
    ['januari', 4],
    ['beveiliging', 4],
    ['coöperatie', 5],
    ['geïnteresseerd', 5],
    ["auto's", 2],
  ],
  ru: [
    ['в', 0],
    ['кот', 1],
    ['мама', 2],
    ['ёлка', 2],
    ['сервер', 2],
    ['интернет', 3],
    ['безопасность', 4],
    ['соединение', 6],
    ['конфиденциальность', 6],
    ['VPN', 1],
  ],
};

describe('countSyllables', () => {
  for (const [lang, words] of Object.entries(SYLLABLES) as [
    ReadabilityLang,
    [string, number][],
  ][]) {
    it.each(words)(`${lang}: %s has %i`, (word, syllables) => {
      expect(countSyllables(word, lang)).toBe(syllables);
    });
  }

  it('gives every word at least one syllable but Russian words without a vowel', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<ReadabilityLang>('en', 'es', 'fr', 'nl'),
        fc.stringMatching(/^[a-zA-Zà-ÿ0-9]{1,20}$/),
        (lang, word) => {
          expect(countSyllables(word, lang)).toBeGreaterThanOrEqual(1);
        },
      ),
    );
  });
});

describe('words and sentences', () => {
  it('counts words of any script, with apostrophes and hyphens inside one', () => {
    expect(wordsOf("Don't e-mail l'homme: VPN 2026, Привет!")).toEqual([
      "Don't",
      'e-mail',
      "l'homme",
      'VPN',
      '2026',
      'Привет',
    ]);
    expect(wordsOf(' … — ')).toEqual([]);
  });

  it.each([
    ['One. Two! Three? Four', 4],
    ['It costs 3.5 euros. Really.', 2],
    ['Use a tool, e.g. this one. Then stop.', 2],
    ['«Bonjour.» Ça va ?', 2],
    ['¿Qué tal? ¡Muy bien!', 2],
    ['A heading\nA line of a list\nA sentence.', 3],
    ['Wait… what?', 2],
    ['', 0],
    ['. ! ?', 0],
  ])('%j has %i sentences', (text, sentences) => {
    expect(sentencesOf(text)).toHaveLength(sentences);
  });
});

// Short plain sentences, a sentence of long abstract words, and a paragraph of a help page.
const SAMPLES: Record<ReadabilityLang, { easy: string; hard: string; plain: string }> = {
  en: {
    easy: 'The cat sat on the mat. It was a sunny day. The dog ran to the park. We had fun.',
    hard: 'The epistemological ramifications of contemporary computational methodologies necessitate comprehensive reconsideration of established interdisciplinary paradigms.',
    plain:
      'A VPN encrypts the traffic between your device and our server, so your internet provider cannot see which websites you visit. It also hides your address from the sites themselves, which makes it harder for advertisers to follow you across the web.',
  },
  es: {
    easy: 'El gato come. La casa es grande. Mi perro juega en el parque. Hoy hace sol.',
    hard: 'La implementación de metodologías computacionales contemporáneas requiere una reconsideración exhaustiva de los paradigmas interdisciplinarios establecidos en la investigación científica.',
    plain:
      'Una VPN cifra el tráfico entre tu dispositivo y nuestro servidor, de modo que tu proveedor de internet no puede ver qué sitios visitas. También oculta tu dirección a los propios sitios, lo que dificulta que los anunciantes te sigan por la red.',
  },
  fr: {
    easy: 'Le chat dort. Il fait beau. Nous allons au parc. Le chien court vite.',
    hard: "L'interprétation épistémologique des méthodologies computationnelles contemporaines nécessite une reconsidération approfondie des paradigmes interdisciplinaires établis.",
    plain:
      "Un VPN chiffre le trafic entre votre appareil et notre serveur, de sorte que votre fournisseur d'accès ne peut pas voir les sites que vous visitez. Il cache aussi votre adresse aux sites eux-mêmes, ce qui complique le suivi par les annonceurs.",
  },
  nl: {
    easy: 'De kat slaapt. Het is mooi weer. Wij gaan naar het park. De hond rent snel.',
    hard: "De epistemologische implicaties van hedendaagse computationele methodologieën vereisen een grondige heroverweging van gevestigde interdisciplinaire paradigma's.",
    plain:
      'Een VPN versleutelt het verkeer tussen je apparaat en onze server, zodat je internetprovider niet kan zien welke websites je bezoekt. Het verbergt ook je adres voor de websites zelf, waardoor adverteerders je minder makkelijk kunnen volgen.',
  },
  ru: {
    easy: 'Кот спит. Сегодня тепло. Мы идём в парк. Собака бежит быстро.',
    hard: 'Эпистемологические последствия современных вычислительных методологий требуют всестороннего переосмысления устоявшихся междисциплинарных парадигм.',
    plain:
      'VPN шифрует трафик между вашим устройством и нашим сервером, поэтому ваш провайдер не видит, какие сайты вы посещаете. Он также скрывает ваш адрес от самих сайтов, и рекламщикам сложнее следить за вами в сети.',
  },
};

describe('readability', () => {
  describe.each(Object.keys(SAMPLES) as ReadabilityLang[])('%s', (lang) => {
    const { easy, hard, plain } = SAMPLES[lang];

    it('scores short plain sentences above 80', () => {
      expect(readability(easy, lang).score).toBeGreaterThan(80);
      expect(readability(easy, lang).band).toMatch(/^(very_easy|easy)$/);
    });

    it('scores a sentence of long abstract words below 30', () => {
      expect(readability(hard, lang).score).toBeLessThan(30);
      expect(readability(hard, lang).band).toBe('very_difficult');
    });

    it('scores a help page’s paragraph in between', () => {
      const { score } = readability(plain, lang);
      expect(score).toBeGreaterThan(40);
      expect(score).toBeLessThan(90);
    });
  });

  it('counts words, sentences and syllables', () => {
    expect(readability(SAMPLES.en.easy, 'en')).toEqual({
      score: 100,
      words: 20,
      sentences: 4,
      syllables: 21,
      band: 'very_easy',
    });
    expect(readability(SAMPLES.ru.easy, 'ru')).toMatchObject({
      words: 11,
      sentences: 4,
      syllables: 18,
    });
  });

  it.each([
    // 2 sentences, 10 words, 14 syllables: 206.835 − 1.015·(10/2) − 84.6·(14/10)
    ['en', 'The server is fast. We keep your data private today.', 83.3],
    // 2 sentences, 10 words, 18 syllables: 206.84 − 0.60·(100·18/10) − 1.02·(10/2)
    ['es', 'La red es rápida. Tus datos están seguros con nosotros.', 93.7],
    // 1 sentence, 7 words, 17 syllables: 207 − 1.015·7 − 73.6·(17/7)
    ['fr', 'La sécurité informatique protège vos données personnelles.', 21.2],
    // 1 sentence, 7 words, 14 syllables: 206.835 − 0.93·7 − 77·(14/7)
    ['nl', 'De beveiliging van je verbinding is belangrijk.', 46.3],
    // 1 sentence, 5 words, 15 syllables: 206.835 − 1.3·5 − 60.1·(15/5)
    ['ru', 'Наш сервис защищает ваше соединение.', 20],
  ] as const)('%s: applies the language’s formula to %j', (lang, text, score) => {
    expect(readability(text, lang).score).toBe(score);
  });

  it('rates shorter sentences easier in every language, Spanish included', () => {
    const long = 'La red es rápida y tus datos están seguros con nosotros y con nadie más';
    const short = 'La red es rápida. Tus datos están seguros. Con nosotros. Con nadie más.';
    for (const lang of ['es', 'en', 'fr', 'nl'] as const) {
      expect(readability(short, lang).score).toBeGreaterThan(readability(long, lang).score);
    }
  });

  it('answers 0 for a text without words', () => {
    expect(readability('', 'en')).toEqual({
      score: 0,
      words: 0,
      sentences: 0,
      syllables: 0,
      band: 'very_difficult',
    });
    expect(readability(' — … 🙂 ', 'fr').words).toBe(0);
  });

  it.each([
    [100, 'very_easy'],
    [90, 'very_easy'],
    [89.9, 'easy'],
    [80, 'easy'],
    [70, 'fairly_easy'],
    [60, 'standard'],
    [59.9, 'fairly_difficult'],
    [50, 'fairly_difficult'],
    [30, 'difficult'],
    [29.9, 'very_difficult'],
    [0, 'very_difficult'],
  ] as const)('a score of %d is %s', (score, band) => {
    expect(readabilityBand(score)).toBe(band);
    expect(READABILITY_BANDS).toContain(band);
  });

  it('stays on the 0..100 scale with one decimal for any text', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<ReadabilityLang>('en', 'es', 'fr', 'nl', 'ru'),
        fc.string({ unit: 'binary' }),
        (lang, text) => {
          const result = readability(text, lang);
          expect(result.score).toBeGreaterThanOrEqual(0);
          expect(result.score).toBeLessThanOrEqual(100);
          expect(Math.round(result.score * 10) / 10).toBe(result.score);
          expect(READABILITY_BANDS).toContain(result.band);
        },
      ),
    );
  });
});
