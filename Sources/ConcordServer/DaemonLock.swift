import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One daemon per home: an exclusive lock on `concordd.pid`, held for the daemon's life.
///
/// The kernel drops the lock when the process dies, however it dies, so a crashed daemon never
/// blocks the next one; its stale socket is then replaced.
final class DaemonLock {
  private let descriptor: Int32

  /// Takes the lock, or fails with "already running (pid N)".
  init(path: String) throws(DaemonError) {
    let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw DaemonError("cannot open \(path): \(String(cString: strerror(errno)))") }
    guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
      var buffer = [UInt8](repeating: 0, count: 32)
      let count = pread(fd, &buffer, buffer.count, 0)
      close(fd)
      let pid = String(decoding: buffer.prefix(max(0, count)), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
      throw DaemonError("already running (pid \(pid.isEmpty ? "unknown" : pid))")
    }
    let text = Array("\(getpid())\n".utf8)
    _ = ftruncate(fd, 0)
    _ = pwrite(fd, text, text.count, 0)
    descriptor = fd
  }

  deinit {
    close(descriptor)
  }
}
