import ConcordText
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The process's standard output for the line-based windows (`--json`, `TERM=dumb`), and
/// whether it and standard input are a terminal.
enum Terminal {
  static var isInteractive: Bool { isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1 }

  /// The columns of the terminal on standard output; else `COLUMNS`; else 80.
  static var columns: Int {
    var size = winsize()
    if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
    return ProcessInfo.processInfo.environment["COLUMNS"].flatMap(Int.init).map { max(20, $0) } ?? 80
  }

  /// Writes `lines`, each ended by a newline, with any control character in them shown as a
  /// sign (``InertText``): text that is not the program's own (titles, messages, names,
  /// reasons) cannot act on the terminal, nor split a line in two.
  static func writeLines(_ lines: [String]) {
    write(lines.map { InertText.shown($0) + "\n" }.joined())
  }

  /// Writes a row of tab-separated fields, each drawn as ``writeLines(_:)`` draws a line: a
  /// field's own tabs and newlines are signs, the separators stay tabs.
  static func writeRow(_ fields: [String]) {
    write(fields.map { InertText.shown($0) }.joined(separator: "\t") + "\n")
  }

  static func write(_ text: String) {
    var bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      let written = bytes[offset...].withUnsafeMutableBytes { Glibc.write(STDOUT_FILENO, $0.baseAddress, $0.count) }
      if written < 0, errno == EINTR { continue }
      guard written > 0 else { return }
      offset += written
    }
  }
}

/// Waits until the socket or standard input has something, or `milliseconds` pass.
/// Returns (socket readable, stdin readable). Once input has ended, pass `watchingInput: false`:
/// a closed input is always "ready", and polling it would spin.
func waitForInput(socket: Int32?, milliseconds: Int32, watchingInput: Bool = true) -> (socket: Bool, stdin: Bool) {
  // A negative descriptor is one poll(2) leaves out.
  var pollers = [pollfd(fd: watchingInput ? STDIN_FILENO : -1, events: Int16(POLLIN), revents: 0)]
  if let socket { pollers.append(pollfd(fd: socket, events: Int16(POLLIN), revents: 0)) }
  guard poll(&pollers, nfds_t(pollers.count), milliseconds) > 0 else { return (false, false) }
  let stdinReady = pollers[0].revents != 0
  let socketReady = pollers.count > 1 && pollers[1].revents != 0
  return (socketReady, stdinReady)
}
