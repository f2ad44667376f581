import ConcordWire

/// What a connection needs from the host, whatever app it hosts.
protocol ConnectionHost: Actor {
  func welcome(for connection: Connection) -> ServerMessage.Welcome
  func handle(_ message: ClientMessage, from connection: Connection)
  func disconnected(_ connection: Connection)
}
