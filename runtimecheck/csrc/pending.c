/* Pending device-to-device copies: a timing event recorded on the copy's
 * stream right after the copy, queried when a later operation is issued. */
static void hl_add_pending(int family, int site, long long seq, void* ev, unsigned long long dst, unsigned long long size) {
  pthread_mutex_lock(&hl_mu);
  for (int i = 0; i < HL_MAXPEND; i++) {
    struct hl_pending* p = &hl_state.pend[i];
    if (!p->used && !p->refs) {
      p->used = 1, p->refs = 0, p->family = family, p->site = site, p->seq = seq, p->event = ev, p->dst = dst, p->size = size;
      pthread_mutex_unlock(&hl_mu);
      return;
    }
  }
  pthread_mutex_unlock(&hl_mu);
  hl_destroy(family, ev);
}

/* hl_pending_json records, for each pending copy, whether it was still in
 * flight when this operation was issued; completed copies are forgotten
 * (their events outlive them while an order pair needs them). With inflight,
 * the slots of the copies in flight are returned with a reference taken. */
static int hl_pending_json(struct hl_line* L, int* inflight) {
  int n = 0;
  if (hl_state.capturing) return 0; /* event queries would invalidate a capture */
  char t[160];
  int first = 1;
  hl_key(L, "pending");
  hl_raw(L, "[");
  pthread_mutex_lock(&hl_mu);
  for (int i = 0; i < HL_MAXPEND; i++) {
    struct hl_pending* p = &hl_state.pend[i];
    if (!p->used) continue;
    int q = hl_query(p->family, p->event);
    snprintf(t, sizeof t, "%s{\"copy\":%d,\"copyseq\":%lld,\"inflight\":%d,\"dst\":\"0x%llx\",\"size\":%llu}",
             first ? "" : ",", p->site, p->seq, q, p->dst, p->size);
    hl_raw(L, t);
    first = 0;
    if (q == 1 && inflight) {
      p->refs++;
      inflight[n++] = i;
    }
    if (q == 0) {
      p->used = 0;
      if (!p->refs) hl_destroy(p->family, p->event);
    }
  }
  pthread_mutex_unlock(&hl_mu);
  hl_raw(L, "]");
  return n;
}

/* hl_unref drops an order pair's reference to a pending copy's slot. */
static void hl_unref(int slot) {
  struct hl_pending* p = &hl_state.pend[slot];
  if (p->refs > 0 && --p->refs == 0 && !p->used) hl_destroy(p->family, p->event);
}

/* hl_order_after records a timing event on the read's stream right after a
 * read issued while the copies in slots were in flight: the ground truth of
 * their order, compared by hl_resolve_orders once both events completed. */
static void hl_order_after(int family, void* stream, int* slots, int n, int site, long long seq, int ok) {
  if (n == 0) return;
  void* ev = ok && !hl_state.capturing ? hl_event_after(family, stream) : 0;
  int placed = 0;
  pthread_mutex_lock(&hl_mu);
  for (int k = 0; k < n; k++) {
    int i = 0;
    while (ev && i < HL_MAXORDER && hl_state.order[i].used) i++;
    if (ev && i < HL_MAXORDER) {
      struct hl_order* o = &hl_state.order[i];
      o->used = 1, o->slot = slots[k], o->rsite = site, o->rseq = seq, o->event = ev; /* the pair keeps the read's reference */
      placed++;
    } else {
      hl_unref(slots[k]);
    }
  }
  pthread_mutex_unlock(&hl_mu);
  if (ev && !placed) hl_destroy(family, ev);
}

/* hl_resolve_orders writes a hiplint:order record for each pair whose two
 * events completed: the read event's completion minus the copy event's, in
 * µs (negative: the read completed before the copy landed). */
static void hl_resolve_orders(void) {
  if (hl_state.capturing) return;
  struct hl_line out[4];
  int n = 0;
  pthread_mutex_lock(&hl_mu);
  for (int i = 0; i < HL_MAXORDER && n < 4; i++) {
    struct hl_order* o = &hl_state.order[i];
    if (!o->used) continue;
    struct hl_pending* p = &hl_state.pend[o->slot];
    int qc = hl_query(p->family, p->event), qr = hl_query(p->family, o->event);
    if (qc == 1 || qr == 1) continue;
    float ms = 0;
    int good = qc == 0 && qr == 0 && hl_elapsed(p->family, p->event, o->event, &ms);
    struct hl_line* L = &out[n++];
    hl_begin(L, o->rsite, "hiplint:order");
    hl_int(L, "copy", p->site);
    hl_int(L, "copyseq", p->seq);
    hl_int(L, "readseq", o->rseq);
    if (good) {
      char t[48];
      hl_key(L, "elapsed_us");
      snprintf(t, sizeof t, "%.3f", (double)ms * 1000.0);
      hl_raw(L, t);
    } else {
      hl_int(L, "order_err", 1);
    }
    void* ev = o->event;
    int fam = p->family;
    o->used = 0;
    hl_unref(o->slot);
    int still = 0;
    for (int j = 0; j < HL_MAXORDER; j++) still += hl_state.order[j].used && hl_state.order[j].event == ev;
    if (!still) hl_destroy(fam, ev);
  }
  pthread_mutex_unlock(&hl_mu);
  for (int k = 0; k < n; k++) hl_emit(&out[k]);
}

/* hiplint_probe marks a host read the analyzer flagged (a dereference, a
 * copy out of managed memory): which copies were still in flight there. */
HL_WEAK void hiplint_probe(int site) {
  hl_init();
  struct hl_line L;
  hl_begin(&L, site, "hiplint:probe");
  hl_int(&L, "t0", hl_now());
  hl_pending_json(&L, 0);
  hl_emit(&L);
  hl_resolve_orders();
}

/* hiplint_mark writes the enter (0) and exit (1) records around a Go call
 * at a finding or silent site: the runtime calls between them are the site's. */
HL_WEAK void hiplint_mark(int site, int phase) {
  hl_init();
  struct hl_line L;
  hl_begin(&L, site, "hiplint:call");
  hl_str(&L, "phase", phase ? "exit" : "enter");
  hl_emit(&L);
}
