import CSodium

/// The cryptography library the log is sealed with (libsodium), made ready for use.
///
/// libsodium must be initialized once per process before any other call; every entry point of
/// the log calls ``Sodium/initialize()`` first, so callers never need to.
///
/// ```swift
/// try Sodium.initialize()
/// print(Sodium.version)   // "1.0.18"
/// ```
public enum Sodium {
  /// Initializes libsodium. Safe to call any number of times, from any thread.
  public static func initialize() throws(SodiumError) {
    // 0: initialized now; 1: already initialized; -1: failure.
    guard sodium_init() >= 0 else { throw .initializationFailed }
  }

  /// The version of the libsodium the process is linked with.
  public static var version: String {
    String(cString: sodium_version_string())
  }
}

/// A failure of the cryptography library itself.
public enum SodiumError: Error, Equatable, CustomStringConvertible {
  /// libsodium could not initialize (no usable source of randomness, for one).
  case initializationFailed

  public var description: String {
    switch self {
    case .initializationFailed: return "libsodium could not be initialized"
    }
  }
}
