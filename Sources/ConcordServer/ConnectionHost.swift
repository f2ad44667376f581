import ConcordWire

/// What a connection needs from the host, whatever app it hosts.
protocol ConnectionHost: Actor {
  func welcome(for window: Connection) -> ServerMessage.Welcome
  func handle(_ message: ClientMessage, from window: Connection)
  func disconnected(_ window: Connection)
}
