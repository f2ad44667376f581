import Concord
import Foundation
import IdentifiedCollections

/// Who is connected, and which scopes each of their windows shows.
///
/// Driven by the daemon's lifecycle actions: a window attaching to or detaching from a scope,
/// and the daemon starting (when every window from before is gone).
public struct Presence: Codable, Equatable, Sendable {
  public var windows: IdentifiedArrayOf<PresentWindow>

  public init() { windows = [] }

  /// The people connected, sorted, each once.
  public var people: [String] { Array(Set(windows.map(\.user))).sorted() }
}

/// One connected window.
public struct PresentWindow: Codable, Equatable, Sendable, Identifiable {
  /// The connection's id.
  public var id: String
  public var user: String
  /// The scopes it is attached to, in the order it attached.
  public var scopes: [String]
  public var since: Date

  public init(id: String, user: String, scopes: [String], since: Date) {
    self.id = id
    self.user = user
    self.scopes = scopes
    self.since = since
  }
}

public enum PresenceAction: Codable, Equatable, Sendable {
  case attached(window: String, user: String, scope: String, at: Date)
  case detached(window: String, scope: String)
  /// The daemon started: no window from before is connected.
  case cleared
}

extension Presence {
  public static let reducer = Reducer<Presence, PresenceAction, Void> { presence, action, _ in
    switch action {
    case let .attached(window, user, scope, at):
      if presence.windows[id: window] == nil {
        presence.windows.append(PresentWindow(id: window, user: user, scopes: [], since: at))
      }
      if presence.windows[id: window]?.scopes.contains(scope) == false {
        presence.windows[id: window]?.scopes.append(scope)
      }
    case let .detached(window, scope):
      presence.windows[id: window]?.scopes.removeAll { $0 == scope }
      if presence.windows[id: window]?.scopes.isEmpty == true { presence.windows.remove(id: window) }
    case .cleared:
      presence.windows.removeAll()
    }
    return .none
  }
}
