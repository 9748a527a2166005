import type { Lang } from '#shared/locales.ts';

/** The export report's words, in the language staff asked for. */
export interface ReportTexts {
  title: string;
  range: (from: string, to: string) => string;
  generated: string;
  columns: {
    number: string;
    issued: string;
    customer: string;
    status: string;
    total: string;
    refunded: string;
  };
  totals: string;
  totalColumns: {
    currency: string;
    count: string;
    total: string;
    paid: string;
    refunded: string;
    net: string;
  };
  capped: (shown: number, all: number) => string;
  none: string;
  page: (page: number, pages: number) => string;
}

export const REPORT_TEXTS: Record<Lang, ReportTexts> = {
  en: {
    title: 'Invoices',
    range: (from, to) => `From ${from} to ${to} (UTC)`,
    generated: 'Generated',
    columns: {
      number: 'Number',
      issued: 'Issued',
      customer: 'Customer',
      status: 'Status',
      total: 'Total',
      refunded: 'Refunded',
    },
    totals: 'Totals per currency (all invoices of the range)',
    totalColumns: {
      currency: 'Currency',
      count: 'Invoices',
      total: 'Invoiced',
      paid: 'Paid',
      refunded: 'Refunded',
      net: 'Net',
    },
    capped: (shown, all) =>
      `The list shows the first ${shown} of ${all} invoices; the CSV export holds all of them.`,
    none: 'No invoices in this range.',
    page: (page, pages) => `Page ${page} of ${pages}`,
  },
  es: {
    title: 'Facturas',
    range: (from, to) => `Del ${from} al ${to} (UTC)`,
    generated: 'Generado',
    columns: {
      number: 'Número',
      issued: 'Emitida',
      customer: 'Cliente',
      status: 'Estado',
      total: 'Total',
      refunded: 'Reembolsado',
    },
    totals: 'Totales por moneda (todas las facturas del periodo)',
    totalColumns: {
      currency: 'Moneda',
      count: 'Facturas',
      total: 'Facturado',
      paid: 'Cobrado',
      refunded: 'Reembolsado',
      net: 'Neto',
    },
    capped: (shown, all) =>
      `La lista muestra las primeras ${shown} de ${all} facturas; la exportación CSV las incluye todas.`,
    none: 'No hay facturas en este periodo.',
    page: (page, pages) => `Página ${page} de ${pages}`,
  },
  fr: {
    title: 'Factures',
    range: (from, to) => `Du ${from} au ${to} (UTC)`,
    generated: 'Généré le',
    columns: {
      number: 'Numéro',
      issued: 'Émise',
      customer: 'Client',
      status: 'Statut',
      total: 'Total',
      refunded: 'Remboursé',
    },
    totals: 'Totaux par devise (toutes les factures de la période)',
    totalColumns: {
      currency: 'Devise',
      count: 'Factures',
      total: 'Facturé',
      paid: 'Encaissé',
      refunded: 'Remboursé',
      net: 'Net',
    },
    capped: (shown, all) =>
      `La liste montre les ${shown} premières factures sur ${all} ; l’export CSV les contient toutes.`,
    none: 'Aucune facture sur cette période.',
    page: (page, pages) => `Page ${page} sur ${pages}`,
  },
  nl: {
    title: 'Facturen',
    range: (from, to) => `Van ${from} tot en met ${to} (UTC)`,
    generated: 'Gemaakt op',
    columns: {
      number: 'Nummer',
      issued: 'Uitgegeven',
      customer: 'Klant',
      status: 'Status',
      total: 'Totaal',
      refunded: 'Terugbetaald',
    },
    totals: 'Totalen per valuta (alle facturen van de periode)',
    totalColumns: {
      currency: 'Valuta',
      count: 'Facturen',
      total: 'Gefactureerd',
      paid: 'Betaald',
      refunded: 'Terugbetaald',
      net: 'Netto',
    },
    capped: (shown, all) =>
      `De lijst toont de eerste ${shown} van ${all} facturen; de CSV-export bevat ze allemaal.`,
    none: 'Geen facturen in deze periode.',
    page: (page, pages) => `Pagina ${page} van ${pages}`,
  },
  ru: {
    title: 'Счета',
    range: (from, to) => `С ${from} по ${to} (UTC)`,
    generated: 'Сформирован',
    columns: {
      number: 'Номер',
      issued: 'Выставлен',
      customer: 'Клиент',
      status: 'Статус',
      total: 'Сумма',
      refunded: 'Возвращено',
    },
    totals: 'Итоги по валютам (все счета периода)',
    totalColumns: {
      currency: 'Валюта',
      count: 'Счетов',
      total: 'Выставлено',
      paid: 'Оплачено',
      refunded: 'Возвращено',
      net: 'Чистыми',
    },
    capped: (shown, all) => `В списке первые ${shown} из ${all} счетов; в выгрузке CSV есть все.`,
    none: 'Счетов за этот период нет.',
    page: (page, pages) => `Страница ${page} из ${pages}`,
  },
};
