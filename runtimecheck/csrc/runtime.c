/* hiplint confirm: the tracing runtime shared by the generated wrappers.
 * Every symbol is static or weak: several instrumented packages may be linked
 * into one test binary, and they must share one state (the trace file, the
 * pending copy events) and one definition of each wrapper. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>
#include <pthread.h>

#define HL_WEAK __attribute__((weak))
#define HL_MAXPEND 256
#define HL_MAXORDER 256

/* A pending copy: used while it may still be in flight; refs counts the
 * order pairs that still need its event. */
struct hl_pending {
  int used, refs, site, family;
  long long seq;
  void* event;
  unsigned long long dst, size;
};

/* An order pair: a read issued while a copy was in flight, with a timing
 * event recorded after the read on its stream, to compare with the copy's. */
struct hl_order {
  int used, slot, rsite;
  long long rseq;
  void* event;
};

struct hl_state {
  int inited, fd, force_sync, capturing, device_done;
  long long seq;
  long delay_us;
  struct hl_pending pend[HL_MAXPEND];
  struct hl_order order[HL_MAXORDER];
};

HL_WEAK struct hl_state hl_state = {0};
HL_WEAK pthread_mutex_t hl_mu = PTHREAD_MUTEX_INITIALIZER;

struct hl_line {
  char b[8192];
  int n;
};

static long long hl_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void hl_raw(struct hl_line* L, const char* s) {
  int k = (int)strlen(s);
  if (L->n + k < (int)sizeof L->b - 64) {
    memcpy(L->b + L->n, s, k);
    L->n += k;
  }
}

static void hl_key(struct hl_line* L, const char* k) {
  char t[96];
  snprintf(t, sizeof t, "%s\"%s\":", L->n > 1 ? "," : "", k);
  hl_raw(L, t);
}

static void hl_int(struct hl_line* L, const char* k, long long v) {
  char t[32];
  hl_key(L, k);
  snprintf(t, sizeof t, "%lld", v);
  hl_raw(L, t);
}

static void hl_ptr(struct hl_line* L, const char* k, unsigned long long v) {
  char t[32];
  hl_key(L, k);
  snprintf(t, sizeof t, "\"0x%llx\"", v);
  hl_raw(L, t);
}

static void hl_str(struct hl_line* L, const char* k, const char* s) {
  char t[8];
  hl_key(L, k);
  if (!s) {
    hl_raw(L, "null");
    return;
  }
  hl_raw(L, "\"");
  for (int i = 0; s[i] && i < 512; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c == '"' || c == '\\') {
      t[0] = '\\', t[1] = (char)c, t[2] = 0;
    } else if (c < 0x20 || c >= 0x7f) {
      snprintf(t, sizeof t, "\\u%04x", c);
    } else {
      t[0] = (char)c, t[1] = 0;
    }
    hl_raw(L, t);
  }
  hl_raw(L, "\"");
}

static void hl_write(const char* b, int n) {
  if (hl_state.fd < 0) return;
  while (n > 0) {
    ssize_t w = write(hl_state.fd, b, n);
    if (w <= 0) return;
    b += w, n -= (int)w;
  }
}

/* hl_emit ends the line, stamps its sequence number and appends it to the
 * trace with one write (O_APPEND keeps lines whole across threads). */
static long long hl_emit(struct hl_line* L) {
  pthread_mutex_lock(&hl_mu);
  long long seq = ++hl_state.seq;
  hl_int(L, "seq", seq);
  hl_raw(L, "}\n");
  hl_write(L->b, L->n);
  pthread_mutex_unlock(&hl_mu);
  return seq;
}

static void hl_begin(struct hl_line* L, int site, const char* api) {
  L->n = 0;
  hl_raw(L, "{");
  hl_int(L, "site", site);
  hl_str(L, "api", api);
}

#ifndef HIPLINT_PLATFORM
#define HIPLINT_PLATFORM "native"
#endif

static void hl_init(void) {
  if (__atomic_load_n(&hl_state.inited, __ATOMIC_ACQUIRE)) return;
  pthread_mutex_lock(&hl_mu);
  if (!hl_state.inited) {
    const char* path = getenv("HIPLINT_TRACE");
    hl_state.fd = path && *path ? open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644) : -1;
    const char* d = getenv("HIPLINT_DELAY_US");
    hl_state.delay_us = d ? atol(d) : 0;
    const char* fsync = getenv("HIPLINT_FORCE_SYNC");
    hl_state.force_sync = fsync && strcmp(fsync, "1") == 0;
    struct hl_line L;
    hl_begin(&L, 0, "hiplint:init");
    hl_int(&L, "pid", (long long)getpid());
    hl_str(&L, "hsa_xnack", getenv("HSA_XNACK"));
    hl_str(&L, "platform", HIPLINT_PLATFORM);
    hl_int(&L, "delay_us", hl_state.delay_us);
    hl_int(&L, "force_sync", hl_state.force_sync);
    hl_int(&L, "seq", 0);
    hl_raw(&L, "}\n");
    hl_write(L.b, L.n);
    __atomic_store_n(&hl_state.inited, 1, __ATOMIC_RELEASE);
  }
  pthread_mutex_unlock(&hl_mu);
}

/* hl_proc samples the process's memory maps and resident set, the evidence
 * of growth per module load. */
static void hl_proc(struct hl_line* L) {
  long long lines = 0, size = 0, res = 0;
  FILE* f = fopen("/proc/self/maps", "r");
  if (f) {
    char buf[4096];
    size_t k;
    while ((k = fread(buf, 1, sizeof buf, f)) > 0)
      for (size_t i = 0; i < k; i++) lines += buf[i] == '\n';
    fclose(f);
  }
  f = fopen("/proc/self/statm", "r");
  if (f) {
    if (fscanf(f, "%lld %lld", &size, &res) != 2) res = 0;
    fclose(f);
  }
  hl_int(L, "maps", lines);
  hl_int(L, "rss", res * (long long)sysconf(_SC_PAGESIZE));
}

static void hl_sleep_fn(void* arg) {
  long us = (long)(intptr_t)arg;
  struct timespec ts = {us / 1000000, (us % 1000000) * 1000};
  nanosleep(&ts, NULL);
}
