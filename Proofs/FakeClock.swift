import DaemonDriving
import Foundation

/// A library preloaded into the daemon that moves its wall clock by the number of seconds
/// written in a file — the clock stepping back or forward under a running process, without
/// touching the machine's clock. The monotonic clock is left alone, as the kernel leaves it.
struct FakeClock {
  let library: URL
  let offsetFile: URL

  /// Compiles the library into `directory` with the system's C compiler.
  init(in directory: URL) throws {
    let source = directory.appending(path: "fake-clock.c")
    library = directory.appending(path: "fake-clock.so")
    offsetFile = directory.appending(path: "clock-offset")
    try Self.source.write(to: source, atomically: true, encoding: .utf8)
    try "0".write(to: offsetFile, atomically: true, encoding: .utf8)
    guard let compiler = which("cc") ?? which("gcc") else { throw DriveError("no C compiler (install gcc)") }
    _ = try runToEnd(compiler, ["-shared", "-fPIC", "-O2", "-o", library.path, source.path, "-ldl"])
  }

  /// The environment that makes a process use this clock.
  var environment: [String: String] { ["LD_PRELOAD": library.path, "CONCORD_FAKE_CLOCK_OFFSET_FILE": offsetFile.path] }

  /// Moves the wall clock of every process using it to `seconds` from the real time.
  func set(offset seconds: Int) throws {
    try "\(seconds)".write(to: offsetFile, atomically: true, encoding: .utf8)
  }

  static let source = """
    #define _GNU_SOURCE
    #include <dlfcn.h>
    #include <stdio.h>
    #include <stdlib.h>
    #include <sys/time.h>
    #include <time.h>

    static long offset_seconds(void) {
      const char *path = getenv("CONCORD_FAKE_CLOCK_OFFSET_FILE");
      if (!path) return 0;
      FILE *file = fopen(path, "r");
      if (!file) return 0;
      long seconds = 0;
      if (fscanf(file, "%ld", &seconds) != 1) seconds = 0;
      fclose(file);
      return seconds;
    }

    int clock_gettime(clockid_t id, struct timespec *time) {
      static int (*real)(clockid_t, struct timespec *);
      if (!real) real = (int (*)(clockid_t, struct timespec *))dlsym(RTLD_NEXT, "clock_gettime");
      int result = real(id, time);
      if (result == 0 && (id == CLOCK_REALTIME || id == CLOCK_REALTIME_COARSE)) time->tv_sec += offset_seconds();
      return result;
    }

    int gettimeofday(struct timeval *restrict time, void *restrict zone) {
      static int (*real)(struct timeval *restrict, void *restrict);
      if (!real) real = (int (*)(struct timeval *restrict, void *restrict))dlsym(RTLD_NEXT, "gettimeofday");
      int result = real(time, zone);
      if (result == 0 && time) time->tv_sec += offset_seconds();
      return result;
    }
    """
}
