/* hiplint confirm: the watchdog of a test process. confirm starts go test
 * with the read end of a pipe whose write end only confirm holds, as file
 * descriptor HIPLINT_WATCH_FD; go test hands it on to the test binary. When
 * confirm dies, even by SIGKILL, the pipe reads end of file, and the
 * watchdog kills the run's process group (go test, the test binary and what
 * they started in it: confirm puts each run in a group of its own) with
 * SIGKILL. Where the pipe did not come through, the test binary asks for
 * SIGKILL when its parent (go test, which confirm's death kills) dies:
 * that ends the binary alone, not its group, so it is only the fallback
 * (with the pipe it would race the watchdog and could win). One watchdog
 * per process however many instrumented packages it links (a weak flag). */
#include <errno.h>
#include <signal.h>
#include <sys/stat.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

HL_WEAK int hl_watch_started = 0;

static void* hl_watch(void* arg) {
  int fd = (int)(intptr_t)arg;
  char buf[64];
  for (;;) {
    ssize_t k = read(fd, buf, sizeof buf);
    if (k > 0 || (k < 0 && errno == EINTR)) continue;
    break; /* end of file (confirm is gone) or an error */
  }
  kill(0, SIGKILL);
  _exit(137);
  return NULL;
}

__attribute__((constructor)) static void hl_watch_start(void) {
  if (__atomic_exchange_n(&hl_watch_started, 1, __ATOMIC_ACQ_REL)) return;
  const char* mark = getenv("HIPLINT_CONFIRM_RUN");
  const char* v = getenv("HIPLINT_WATCH_FD");
  if (!mark || !*mark || !v || !*v) return; /* not run by confirm */
  int fd = atoi(v);
  struct stat st;
  if (fd < 3 || fstat(fd, &st) != 0 || !S_ISFIFO(st.st_mode)) {
#ifdef __linux__
    prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
    return;
  }
  fcntl(fd, F_SETFD, FD_CLOEXEC); /* the test's own children do not need it */
  pthread_t t;
  pthread_attr_t a;
  pthread_attr_init(&a);
  pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
  pthread_attr_setstacksize(&a, 64 * 1024);
  pthread_create(&t, &a, hl_watch, (void*)(intptr_t)fd);
  pthread_attr_destroy(&a);
}
