import Foundation

/// The lines of a file, read in chunks, as bytes: the export verifier decides what is valid
/// UTF-8, not a decoder that would replace what is not.
struct LineReader: Sequence, IteratorProtocol {
  let handle: FileHandle
  var buffer: [UInt8] = []
  /// Where the next line starts: lines are taken by moving it, and the buffer is compacted once
  /// per chunk, not once per line.
  var start = 0
  /// Where the search for the next newline goes on: a line that spans many chunks is scanned
  /// once, not again from its start after every chunk.
  var searched = 0
  var atEnd = false

  init(handle: FileHandle) { self.handle = handle }

  mutating func next() -> [UInt8]? {
    while true {
      if let newline = buffer[Swift.max(start, searched)...].firstIndex(of: UInt8(ascii: "\n")) {
        let line = Array(buffer[start..<newline])
        start = newline + 1
        return line
      }
      if atEnd {
        guard start < buffer.count else { return nil }
        defer { start = buffer.count }
        return Array(buffer[start...])
      }
      buffer.removeSubrange(..<start)
      start = 0
      searched = buffer.count
      let chunk = (try? handle.read(upToCount: 1 << 16)) ?? nil
      if let chunk, !chunk.isEmpty { buffer.append(contentsOf: chunk) } else { atEnd = true }
    }
  }
}
