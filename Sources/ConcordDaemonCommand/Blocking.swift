import Foundation

/// Async work run to its end from a command's synchronous `run()`: the daemon's service group.
/// The calling thread waits; the work runs on Swift's own executors.
enum Blocking {
  static func run(_ operation: @escaping @Sendable () async throws -> Void) throws {
    let outcome = Outcome()
    Task {
      do {
        try await operation()
        outcome.finish(.success(()))
      } catch {
        outcome.finish(.failure(error))
      }
    }
    try outcome.wait().get()
  }

  /// The work's result, handed from its task to the waiting thread.
  private final class Outcome: @unchecked Sendable {
    // Written once, before `done` is signalled; read after the wait: the semaphore orders them.
    private var result: Result<Void, any Error>?
    private let done = DispatchSemaphore(value: 0)

    func finish(_ result: Result<Void, any Error>) {
      self.result = result
      done.signal()
    }

    func wait() -> Result<Void, any Error> {
      done.wait()
      return result!
    }
  }
}
