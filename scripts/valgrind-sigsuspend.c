/* Preloaded into concordd under valgrind by scripts/instructions.py.
 *
 * Valgrind 3.19 writes into the signal mask a program passes to sigsuspend(2) (it takes its own
 * signal out of it); libdispatch passes a mask in read-only memory, so valgrind dies with SIGSEGV
 * as the daemon's main thread parks. This sigsuspend hands the kernel a writable copy instead. */
#define _GNU_SOURCE
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

int sigsuspend(const sigset_t *mask) {
  sigset_t copy = *mask;
  return (int)syscall(SYS_rt_sigsuspend, &copy, _NSIG / 8);
}
