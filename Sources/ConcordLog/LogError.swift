/// Why the log could not do what was asked. Each case reads as one line a person can act on.
public enum LogError: Error, Equatable, CustomStringConvertible {
  /// The key (or passphrase) does not open this log. Nothing was read or written.
  case wrongKey(path: String)
  /// The key file is readable or writable by others; it must be mode 0600.
  case keyFileTooOpen(path: String, mode: UInt16)
  /// The key file exists but does not hold a key.
  case keyFileMalformed(path: String, reason: String)
  /// The log was created with a key file but opened with a passphrase, or the other way round.
  case keyKindMismatch(path: String, expected: String)
  /// The database was written by a newer version of Concord.
  case newerSchema(path: String)
  /// The file is not a Concord log.
  case notALog(path: String, reason: String)
  /// Writing failed; the batch was not kept and the log is as it was before it.
  case writeFailed(path: String, reason: String)
  /// Reading failed.
  case readFailed(path: String, reason: String)
  /// An entry could not be opened or decoded while reading.
  case corruptEntry(seq: Int64, reason: String)
  /// A range of entries that the log does not have.
  case outOfRange(from: Int64, through: Int64?, lastSeq: Int64)
  /// An operating-system call failed.
  case io(path: String, reason: String)

  public var description: String {
    switch self {
    case let .wrongKey(path): return "wrong key for log \(path)"
    case let .keyFileTooOpen(path, mode):
      return "key file \(path) is accessible by others (mode \(String(mode, radix: 8))); run: chmod 600 \(path)"
    case let .keyFileMalformed(path, reason): return "key file \(path) is not a Concord key: \(reason)"
    case let .keyKindMismatch(path, expected): return "log \(path) is opened with \(expected)"
    case let .newerSchema(path):
      return "log \(path) was written by a newer version of Concord; upgrade to open it"
    case let .notALog(path, reason): return "\(path) is not a Concord log: \(reason)"
    case let .writeFailed(path, reason): return "could not write to log \(path), nothing was kept: \(reason)"
    case let .readFailed(path, reason): return "could not read log \(path): \(reason)"
    case let .corruptEntry(seq, reason): return "entry \(seq) cannot be read: \(reason)"
    case let .outOfRange(from, through, lastSeq):
      return "no entries \(from)…\(through.map(String.init) ?? "end"): the log ends at \(lastSeq)"
    case let .io(path, reason): return "\(path): \(reason)"
    }
  }
}
