import type { Lang } from '#shared/locales.ts';
import type { InvoiceStatus } from './invoice-document.ts';

// The invoice PDF's own words in the five languages (§1/§3 Locale). The PDF is made on the
// server, so its texts live here like the mail's, not in the app's locale files. The "Tax
// ID" label names the seller's number as each country's invoices usually do.

export interface InvoiceTexts {
  title: string;
  number: string;
  issued: string;
  paid: string;
  period: string;
  billedTo: string;
  taxId: string;
  description: string;
  quantity: string;
  unitPrice: string;
  amount: string;
  subtotal: string;
  discount: string;
  tax: string;
  total: string;
  amountPaid: string;
  refunded: string;
  amountDue: string;
  status: Record<InvoiceStatus, string>;
  page(page: number, pages: number): string;
}

const en: InvoiceTexts = {
  title: 'Invoice',
  number: 'Invoice number',
  issued: 'Date',
  paid: 'Paid',
  period: 'Service period',
  billedTo: 'Billed to',
  taxId: 'Tax ID',
  description: 'Description',
  quantity: 'Qty',
  unitPrice: 'Unit price',
  amount: 'Amount',
  subtotal: 'Subtotal',
  discount: 'Discount',
  tax: 'Tax',
  total: 'Total',
  amountPaid: 'Amount paid',
  refunded: 'Refunded',
  amountDue: 'Amount due',
  status: {
    paid: 'Paid',
    open: 'Open',
    void: 'Void',
    refunded: 'Refunded',
    finalizing: 'Finalizing',
  },
  page: (page, pages) => `Page ${page} of ${pages}`,
};

const es: InvoiceTexts = {
  title: 'Factura',
  number: 'Número de factura',
  issued: 'Fecha',
  paid: 'Pagada',
  period: 'Periodo de servicio',
  billedTo: 'Facturar a',
  taxId: 'NIF',
  description: 'Descripción',
  quantity: 'Cant.',
  unitPrice: 'Precio unitario',
  amount: 'Importe',
  subtotal: 'Subtotal',
  discount: 'Descuento',
  tax: 'Impuesto',
  total: 'Total',
  amountPaid: 'Importe pagado',
  refunded: 'Reembolsado',
  amountDue: 'Importe pendiente',
  status: {
    paid: 'Pagada',
    open: 'Pendiente',
    void: 'Anulada',
    refunded: 'Reembolsada',
    finalizing: 'En proceso',
  },
  page: (page, pages) => `Página ${page} de ${pages}`,
};

const fr: InvoiceTexts = {
  title: 'Facture',
  number: 'Numéro de facture',
  issued: 'Date',
  paid: 'Payée le',
  period: 'Période de service',
  billedTo: 'Facturé à',
  taxId: 'N° de TVA',
  description: 'Description',
  quantity: 'Qté',
  unitPrice: 'Prix unitaire',
  amount: 'Montant',
  subtotal: 'Sous-total',
  discount: 'Remise',
  tax: 'Taxe',
  total: 'Total',
  amountPaid: 'Montant payé',
  refunded: 'Remboursé',
  amountDue: 'Montant dû',
  status: {
    paid: 'Payée',
    open: 'À payer',
    void: 'Annulée',
    refunded: 'Remboursée',
    finalizing: 'En cours',
  },
  page: (page, pages) => `Page ${page} sur ${pages}`,
};

const nl: InvoiceTexts = {
  title: 'Factuur',
  number: 'Factuurnummer',
  issued: 'Datum',
  paid: 'Betaald op',
  period: 'Serviceperiode',
  billedTo: 'Factuur aan',
  taxId: 'Btw-nummer',
  description: 'Omschrijving',
  quantity: 'Aantal',
  unitPrice: 'Prijs per stuk',
  amount: 'Bedrag',
  subtotal: 'Subtotaal',
  discount: 'Korting',
  tax: 'Belasting',
  total: 'Totaal',
  amountPaid: 'Betaald bedrag',
  refunded: 'Terugbetaald',
  amountDue: 'Te betalen',
  status: {
    paid: 'Betaald',
    open: 'Openstaand',
    void: 'Geannuleerd',
    refunded: 'Terugbetaald',
    finalizing: 'In behandeling',
  },
  page: (page, pages) => `Pagina ${page} van ${pages}`,
};

const ru: InvoiceTexts = {
  title: 'Счёт',
  number: 'Номер счёта',
  issued: 'Дата',
  paid: 'Дата оплаты',
  period: 'Период обслуживания',
  billedTo: 'Плательщик',
  taxId: 'ИНН',
  description: 'Описание',
  quantity: 'Кол-во',
  unitPrice: 'Цена',
  amount: 'Сумма',
  subtotal: 'Подытог',
  discount: 'Скидка',
  tax: 'Налог',
  total: 'Итого',
  amountPaid: 'Оплачено',
  refunded: 'Возвращено',
  amountDue: 'К оплате',
  status: {
    paid: 'Оплачен',
    open: 'Ожидает оплаты',
    void: 'Аннулирован',
    refunded: 'Возвращён',
    finalizing: 'Оформляется',
  },
  page: (page, pages) => `Страница ${page} из ${pages}`,
};

export const INVOICE_TEXTS: Record<Lang, InvoiceTexts> = { en, es, fr, nl, ru };
