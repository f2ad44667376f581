/// The scopes of the app, as windows know them.
public struct ClientApp: Sendable {
  public let name: String
  public let scopes: [WindowScope]

  public init(name: String, scopes: [WindowScope]) {
    self.name = name
    self.scopes = scopes
  }

  /// The scope named `name` (without its parameter), or nil.
  public func scope(named name: String) -> WindowScope? {
    scopes.first { $0.name == name }
  }
}
