import Foundation

/// Writes small files so that after a crash they hold either the old bytes or the new ones.
enum DurableFile {
  /// Writes `bytes` to a temporary file beside `path`, syncs it, renames it over `path`, and
  /// syncs the directory. Mode 0600.
  static func write(_ bytes: [UInt8], to path: String) throws(LogError) {
    let temporary = path + ".tmp"
    let fd = Glibc.open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw .io(path: temporary, reason: String(cString: strerror(errno))) }
    let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
    let synced = fsync(fd) == 0
    let reason = String(cString: strerror(errno))
    close(fd)
    guard written == bytes.count, synced, rename(temporary, path) == 0 else {
      unlink(temporary)
      throw .io(path: path, reason: reason)
    }
    syncDirectory(containing: path)
  }

  /// Syncs the directory holding `path`, so that a name just made there outlives a crash.
  static func syncDirectory(containing path: String) {
    let directory = (path as NSString).deletingLastPathComponent
    let fd = Glibc.open(directory.isEmpty ? "." : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    if fd >= 0 {
      fsync(fd)
      close(fd)
    }
  }

  /// The file's bytes, or nil when it does not exist.
  static func read(_ path: String) throws(LogError) -> [UInt8]? {
    guard FileManager.default.fileExists(atPath: path) else { return nil }
    guard let data = FileManager.default.contents(atPath: path) else {
      throw .io(path: path, reason: "cannot be read")
    }
    return [UInt8](data)
  }
}
