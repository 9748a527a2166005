// What has been refunded of each PayPal payment, as far as this process has been told.
//
// PayPal's list of a subscription's transactions says a payment was PARTIALLY_REFUNDED but not
// by how much, and no PayPal API lists a capture's refunds; only a refund itself tells the
// capture's total refunded so far (seller_payable_breakdown.total_refunded_amount). Each
// refund we make, and each one PayPal reports by webhook (read back), is recorded here, so an
// invoice built from a later read of the list keeps the refunded sum PayPal recorded instead
// of falling back to nothing. The sum only grows: refunds are never undone.

export class RefundLedger {
  private readonly totals = new Map<string, number>();

  /** PayPal's total refunded of `captureId`, as a refund's read-back told it. */
  record(captureId: string, total: number): void {
    if (!Number.isFinite(total) || total <= 0) return;
    this.totals.set(captureId, Math.max(this.totals.get(captureId) ?? 0, total));
  }

  /** The largest total refunded of `captureId` we have been told; 0 when none. */
  totalOf(captureId: string): number {
    return this.totals.get(captureId) ?? 0;
  }
}
