import Foundation

/// A value made the first time it is read, once, whichever thread reads it.
final class Lazy<Value: Sendable>: @unchecked Sendable {
  private let make: @Sendable () -> Value
  private let lock = NSLock()
  // Guarded by `lock`.
  private var made: Value?

  init(_ make: @escaping @Sendable () -> Value) { self.make = make }

  var value: Value {
    lock.withLock {
      if let made { return made }
      let value = make()
      made = value
      return value
    }
  }
}
