import ConcordLog
import Testing

@Suite struct SodiumTests {
  @Test func theCryptographyLibraryInitializesAndNamesItsVersion() throws {
    try Sodium.initialize()
    try Sodium.initialize()  // a second call is harmless
    let parts = Sodium.version.split(separator: ".")
    #expect(parts.count >= 2)
    #expect(parts.allSatisfy { Int($0) != nil })
  }
}
