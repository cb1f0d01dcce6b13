/* Pending device-to-device copies: an event recorded on the copy's stream
 * right after the copy, queried when a later operation is issued. */
static void hl_add_pending(int family, int site, long long seq, void* ev, unsigned long long dst, unsigned long long size) {
  pthread_mutex_lock(&hl_mu);
  for (int i = 0; i < HL_MAXPEND; i++) {
    struct hl_pending* p = &hl_state.pend[i];
    if (!p->used) {
      p->used = 1, p->family = family, p->site = site, p->seq = seq, p->event = ev, p->dst = dst, p->size = size;
      pthread_mutex_unlock(&hl_mu);
      return;
    }
  }
  pthread_mutex_unlock(&hl_mu);
  hl_destroy(family, ev);
}

/* hl_pending_json records, for each pending copy, whether it was still in
 * flight when this operation was issued; completed copies are forgotten. */
static void hl_pending_json(struct hl_line* L) {
  if (hl_state.capturing) return; /* event queries would invalidate a capture */
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
    if (q == 0) {
      hl_destroy(p->family, p->event);
      p->used = 0;
    }
  }
  pthread_mutex_unlock(&hl_mu);
  hl_raw(L, "]");
}

/* hiplint_probe marks a host read the analyzer flagged (a dereference, a
 * copy out of managed memory): which copies were still in flight there. */
HL_WEAK void hiplint_probe(int site) {
  hl_init();
  struct hl_line L;
  hl_begin(&L, site, "hiplint:probe");
  hl_int(&L, "t0", hl_now());
  hl_pending_json(&L);
  hl_emit(&L);
}
