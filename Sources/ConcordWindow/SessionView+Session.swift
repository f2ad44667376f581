import ConcordClient
import Foundation

extension SessionView {
  /// What `session` shows now. It reads (and decrypts) the outbox: the actions waiting, the ones
  /// refused when resent, and the pending ones to predict; when the refused ones cannot be read,
  /// those of `earlier` are kept.
  public init(_ session: WindowSession, keeping earlier: SessionView? = nil) {
    let link: Link
    if session.isConnected {
      link = .connected
    } else if session.isConnecting {
      link = .connecting
    } else {
      link = .offline(retryingAt: session.reconnectsAt.flatMap { $0 == .distantFuture ? nil : $0 })
    }
    var logWentBack = false
    if case .rolledBack? = session.divergence { logWentBack = true }
    self.init(
      link: link, logWentBack: logWentBack, seq: session.seq, user: session.userName, shown: session.readShown(),
      waiting: session.readWaitingCount(),
      refusedOnResend: (try? session.outbox.refusedOnResend()) ?? earlier?.refusedOnResend ?? [])
  }
}
