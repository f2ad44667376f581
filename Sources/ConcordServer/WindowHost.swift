import ConcordWire

/// What a connection needs from the host, whatever app it hosts.
protocol WindowHost: Actor {
  func welcome(for window: WindowLink) -> ServerMessage.Welcome
  func handle(_ message: ClientMessage, from window: WindowLink)
  func disconnected(_ window: WindowLink)
}
