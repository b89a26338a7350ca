/* The run elsewhere's sleeps on the monotonic clock, past libfaketime (lib/sandbox/machine.ts
 * clockEnv preloads this before it). libfaketime 0.9.10 with FAKETIME_DONT_FAKE_MONOTONIC turns an
 * absolute deadline on CLOCK_MONOTONIC (how CPython's time.sleep waits) into EINVAL; the monotonic
 * clock is not moved in those runs, so the kernel's own call is the right answer. Without this the
 * runner had to put a Python function in time.sleep's place, which a body could see (issue 26). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

int clock_nanosleep(clockid_t clock, int flags, const struct timespec *request, struct timespec *remain) {
  static int (*next)(clockid_t, int, const struct timespec *, struct timespec *);
  if (clock == CLOCK_MONOTONIC) return syscall(SYS_clock_nanosleep, clock, flags, request, remain) == 0 ? 0 : errno;
  if (!next) next = (int (*)(clockid_t, int, const struct timespec *, struct timespec *))dlsym(RTLD_NEXT, "clock_nanosleep");
  return next ? next(clock, flags, request, remain) : ENOSYS;
}
