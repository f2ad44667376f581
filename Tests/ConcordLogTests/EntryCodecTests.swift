import Testing

@testable import ConcordLog

/// The payload layout is written in two places: the encoder, and the size the append path
/// reserves for it in a batch's buffer (a size that is off stops the daemon at a precondition).
@Suite struct EntryCodecTests {
  @Test(arguments: [
    ActionOutcome.applied,
    .refused(reason: "not enough stock"),
    .refused(reason: ""),
  ])
  func thePayloadSizeTheAppendPathReservesIsWhatTheEncoderWrites(outcome: ActionOutcome) {
    let fields = [("ana", "card:42", #"{"move":{"to":"done"}}"#, "Workspace"), ("", "", "", ""), ("Zoë", "chat:général", #"{"say":"日本語 ✓"}"#, "Äpp")]
    for (user, scope, action, app) in fields {
      let payload = EntryCodec.Payload(
        salt: [UInt8](repeating: 7, count: EntryCodec.saltBytes), user: user, scope: scope, action: action,
        outcome: outcome, app: app, appVersion: 3)
      #expect(
        EntryCodec.payloadByteCount(user: user, scope: scope, action: action, outcome: outcome, app: app)
          == EntryCodec.encode(payload).count, "\(user) \(scope) \(action) \(app)")
    }
  }
}
