import ConcordClient
import Foundation

/// What a window's session shows at one moment: the link to the daemon, the state with what is
/// pending on top, and what waits. The shell reads it from the session (reading it decrypts
/// the outbox: not at every keystroke) and gives it to the ``WindowModel``.
public struct SessionView: Sendable, Equatable {
  /// The window's link to the daemon.
  public enum Link: Sendable, Equatable {
    case connected
    /// Away; a connection through ssh is being made.
    case connecting
    /// Away; the next try is due at `retryingAt` (nil: none is planned).
    case offline(retryingAt: Date?)
  }

  public var link: Link
  /// The daemon's log went back (rolled back, or restored from an older copy): nothing is sent
  /// until a person decides, so the window stays away.
  public var logWentBack: Bool
  /// The seq of the daemon's state shown; nil before any was seen.
  public var seq: Int64?
  /// Who the daemon says the window's person is.
  public var user: String
  /// The state shown, with the actions still pending on top; nil before any was seen.
  public var shown: Shown?
  /// The actions waiting in the outbox, every window's and command's of the home.
  public var waiting: Int
  /// Actions of the home refused when resent and not dismissed yet, oldest first.
  public var refusedOnResend: [RefusedAction]

  public init(
    link: Link = .offline(retryingAt: nil), logWentBack: Bool = false, seq: Int64? = nil, user: String = "",
    shown: Shown? = nil, waiting: Int = 0, refusedOnResend: [RefusedAction] = []
  ) {
    self.link = link
    self.logWentBack = logWentBack
    self.seq = seq
    self.user = user
    self.shown = shown
    self.waiting = waiting
    self.refusedOnResend = refusedOnResend
  }

  public var isConnected: Bool { link == .connected }
}
