import Foundation

/// The attacker who edits the home: SQL run on the log's database by python3's sqlite3, outside
/// our own code, so a test's tampering does not pass through the types the test checks.
public enum LogTamper {
  /// Runs `sql` on the log in `home` and throws, with python's own words, unless it ran and
  /// changed at least one row: a test whose tampering silently did nothing proves nothing.
  ///
  ///     try LogTamper.run(LogTamper.changeFirstCiphertextByte(ofEntry: 5), on: daemon.home)
  public static func run(_ sql: String, on home: URL) throws {
    let process = Process()
    process.executableURL = URL(filePath: "/usr/bin/python3")
    process.arguments = [
      "-c",
      "import sqlite3,sys; c=sqlite3.connect(sys.argv[1], timeout=30); c.execute(sys.argv[2]); c.commit(); "
        + "sys.exit(0 if c.total_changes else 'no row changed')",
      home.appending(path: "log.sqlite").path, sql,
    ]
    let errors = Pipe()
    process.standardError = errors
    try process.run()
    let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw DriveError("the tampering failed: \(said)") }
  }

  /// SQL that changes the first byte of entry `seq`'s ciphertext: to 0x01 if it was 0x00, else
  /// to 0x00. Writing 0x00 alone left one entry in 256 as it was.
  public static func changeFirstCiphertextByte(ofEntry seq: Int) -> String {
    """
    UPDATE entries SET ciphertext = \
    (CASE WHEN substr(ciphertext, 1, 1) = X'00' THEN X'01' ELSE X'00' END) || substr(ciphertext, 2) \
    WHERE seq = \(seq)
    """
  }
}
